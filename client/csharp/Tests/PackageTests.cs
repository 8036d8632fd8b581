using System;
using System.Collections.Generic;
using System.IO;
using System.Text.RegularExpressions;
using Arena.Client.Json;

namespace Arena.Client.Tests
{
    /// <summary>
    /// The Unity package's shape: a git-URL install is immutable, so Unity ignores every asset
    /// without a committed .meta file; GUIDs must be unique.
    /// </summary>
    static class PackageTests
    {
        // PackageRoot is client/csharp: the parent of build/, where the runner lives.
        static string PackageRoot()
        {
            string dir = Path.GetDirectoryName(typeof(PackageTests).Assembly.Location);
            string root = Path.GetDirectoryName(dir);
            Assert.True(File.Exists(Path.Combine(root, "package.json")), "package.json beside build/ in " + root);
            return root;
        }

        [Test]
        static void ManifestAndAssemblyDefinitions()
        {
            string root = PackageRoot();
            var manifest = JsonReader.Parse(File.ReadAllText(Path.Combine(root, "package.json")));
            Assert.Equal("com.arena.client", manifest.GetString("name"), "name");
            Assert.True(Regex.IsMatch(manifest.GetString("version") ?? "", @"^\d+\.\d+\.\d+$"), "semantic version");
            Assert.Equal("2021.3", manifest.GetString("unity"), "unity");
            Assert.True(!string.IsNullOrEmpty(manifest.GetString("displayName")) && !string.IsNullOrEmpty(manifest.GetString("description")), "displayName and description");
            var runtime = JsonReader.Parse(File.ReadAllText(Path.Combine(root, "Runtime", "Arena.Client.asmdef")));
            Assert.Equal("Arena.Client", runtime.GetString("name"), "runtime assembly");
            foreach (string side in new[] { "Tests/Arena.Client.Tests.asmdef", "Cli/Arena.Client.Cli.asmdef" })
            {
                var asmdef = JsonReader.Parse(File.ReadAllText(Path.Combine(root, side)));
                Assert.True(asmdef["defineConstraints"] != null && asmdef["defineConstraints"].Items.Count == 1, side + " is kept out of Unity builds");
            }
        }

        [Test]
        static void EveryAssetHasAMetaFile()
        {
            string root = PackageRoot();
            var guids = new Dictionary<string, string>();
            var pending = new Stack<string>();
            pending.Push(root);
            int checkedCount = 0;
            while (pending.Count > 0)
            {
                string dir = pending.Pop();
                foreach (string sub in Directory.GetDirectories(dir))
                {
                    string name = Path.GetFileName(sub);
                    if (name.StartsWith(".", StringComparison.Ordinal) || (dir == root && name == "build")) continue;
                    CheckMeta(sub, guids);
                    pending.Push(sub);
                    checkedCount++;
                }
                foreach (string file in Directory.GetFiles(dir))
                {
                    string name = Path.GetFileName(file);
                    if (name.StartsWith(".", StringComparison.Ordinal)) continue;
                    if (name.EndsWith(".meta", StringComparison.Ordinal))
                    {
                        string asset = file.Substring(0, file.Length - 5);
                        Assert.True(File.Exists(asset) || Directory.Exists(asset), "a .meta without its asset: " + file);
                        continue;
                    }
                    CheckMeta(file, guids);
                    checkedCount++;
                }
            }
            Assert.True(checkedCount >= 30, "walked the package: " + checkedCount);
        }

        static void CheckMeta(string asset, Dictionary<string, string> guids)
        {
            string meta = asset + ".meta";
            Assert.True(File.Exists(meta), "no .meta file for " + asset + " (Unity ignores it in an immutable package: open the package embedded in a Unity project to generate one, or copy a sibling .meta with a new random guid)");
            var m = Regex.Match(File.ReadAllText(meta), @"^guid: ([0-9a-f]{32})$", RegexOptions.Multiline);
            Assert.True(m.Success, "a guid in " + meta);
            string other;
            Assert.True(!guids.TryGetValue(m.Groups[1].Value, out other), "guid of " + meta + " also in " + other);
            guids[m.Groups[1].Value] = meta;
        }
    }
}
