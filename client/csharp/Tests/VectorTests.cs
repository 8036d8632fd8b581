using System;
using System.Collections.Generic;
using System.IO;
using System.Text;
using System.Threading.Tasks;
using Arena.Client.Json;

namespace Arena.Client.Tests
{
    /// <summary>
    /// Every vector of client/testdata/vectors.json, the file all Arena clients share. The file
    /// is found from the repository root (searched upward from the working directory and from
    /// this assembly); the environment variable ARENA_VECTORS_FILE names another file.
    /// </summary>
    static class VectorTests
    {
        const string RelativePath = "client/testdata/vectors.json";

        internal static string FindVectorsFile()
        {
            string overridePath = Environment.GetEnvironmentVariable("ARENA_VECTORS_FILE");
            if (!string.IsNullOrEmpty(overridePath)) return overridePath;
            var starts = new[] { Directory.GetCurrentDirectory(), Path.GetDirectoryName(typeof(VectorTests).Assembly.Location) };
            foreach (string start in starts)
            {
                for (var dir = new DirectoryInfo(start); dir != null; dir = dir.Parent)
                {
                    string candidate = Path.Combine(dir.FullName, RelativePath);
                    if (File.Exists(candidate)) return candidate;
                }
            }
            throw new AssertionException(RelativePath + " not found above " + starts[0] + " (set ARENA_VECTORS_FILE to use another file)");
        }

        [TestCases]
        static IEnumerable<TestCase> Vectors()
        {
            JsonValue file = JsonReader.Parse(File.ReadAllText(FindVectorsFile(), Encoding.UTF8));
            var vectors = file["vectors"];
            Assert.True(vectors != null && vectors.Items.Count >= 80, "the vectors file holds at least 80 vectors");
            var names = new HashSet<string>();
            foreach (var v in vectors.Items)
            {
                var vector = v;
                string name = vector.GetString("name");
                Assert.True(names.Add(name), "vector names are unique: " + name);
                yield return new TestCase(name, () =>
                {
                    Check(vector);
                    return Task.FromResult(0);
                });
            }
        }

        static void Check(JsonValue v)
        {
            string input = v.GetString("input");
            long matchId = v.GetInt64("matchId");
            string nonce = v.GetString("sessionNonce");
            string winner = v.GetString("winner");
            string refuse = v.GetString("refuse");
            string expected = v.GetString("canonical");
            Assert.True((refuse == null) != (expected == null), "exactly one of canonical and refuse");

            // The text as a .NET string, and as the UTF-8 bytes a game might hand over.
            var fromText = ResultCanonicalizer.Canonicalize(input, matchId, nonce, winner);
            var fromBytes = ResultCanonicalizer.Canonicalize(Encoding.UTF8.GetBytes(input), matchId, nonce, winner);
            foreach (var got in new[] { fromText, fromBytes })
            {
                if (refuse != null)
                {
                    Assert.Equal(refuse, got.Refusal, "refusal");
                    Assert.Null(got.Canonical, "canonical of a refused result");
                    continue;
                }
                Assert.Null(got.Refusal, "refusal");
                Assert.Equal(expected, got.Canonical, "canonical");
                Assert.Equal(v.GetString("canonicalHex"), Hex(Encoding.UTF8.GetBytes(got.Canonical)), "canonicalHex");
                Assert.Equal(v.GetString("sha256"), got.Sha256, "sha256");
            }
        }

        internal static string Hex(byte[] bytes)
        {
            var sb = new StringBuilder(bytes.Length * 2);
            foreach (byte b in bytes) sb.Append(b.ToString("x2"));
            return sb.ToString();
        }
    }
}
