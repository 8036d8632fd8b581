using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Reflection;
using System.Threading;
using System.Threading.Tasks;

namespace Arena.Client.Tests
{
    /// <summary>Marks a test: a static method returning void or Task.</summary>
    [AttributeUsage(AttributeTargets.Method)]
    sealed class TestAttribute : Attribute { }

    /// <summary>Marks a static method returning IEnumerable&lt;TestCase&gt;: generated tests.</summary>
    [AttributeUsage(AttributeTargets.Method)]
    sealed class TestCasesAttribute : Attribute { }

    sealed class TestCase
    {
        public TestCase(string name, Func<Task> run)
        {
            Name = name;
            Run = run;
        }

        public string Name { get; }
        public Func<Task> Run { get; }
    }

    sealed class AssertionException : Exception
    {
        public AssertionException(string message) : base(message) { }
    }

    static class Assert
    {
        public static void Equal<T>(T expected, T actual, string what = null)
        {
            if (!EqualityComparer<T>.Default.Equals(expected, actual))
                throw new AssertionException((what != null ? what + ": " : "") + "expected <" + expected + "> got <" + actual + ">");
        }

        public static void True(bool condition, string what)
        {
            if (!condition) throw new AssertionException(what);
        }

        public static void False(bool condition, string what)
        {
            if (condition) throw new AssertionException(what);
        }

        public static void Null(object value, string what)
        {
            if (value != null) throw new AssertionException(what + ": expected null, got <" + value + ">");
        }

        public static void NotNull(object value, string what)
        {
            if (value == null) throw new AssertionException(what + ": expected a value, got null");
        }

        public static T Throws<T>(Action action, string what) where T : Exception
        {
            try
            {
                action();
            }
            catch (T e)
            {
                return e;
            }
            catch (Exception e)
            {
                throw new AssertionException(what + ": expected " + typeof(T).Name + ", got " + e.GetType().Name + ": " + e.Message);
            }
            throw new AssertionException(what + ": expected " + typeof(T).Name + ", nothing was thrown");
        }
    }

    /// <summary>
    /// A small test runner: finds [Test] and [TestCases] methods in this assembly, runs them (an
    /// optional argument filters names by substring) under the de-DE culture, prints each failure and a closing line
    /// "N passed, N failed"; the exit status is 1 when any failed.
    /// </summary>
    static class TestRunner
    {
        static int Main(string[] args)
        {
            int status = RunAsync(args).GetAwaiter().GetResult();
            Console.Out.Flush();
            Environment.Exit(status); // Mono may otherwise hang at exit on leftover HttpClient threads
            return status;
        }

        static async Task<int> RunAsync(string[] args)
        {
            string filter = args.Length > 0 ? args[0] : null;
            // Every test runs under a culture with a decimal comma: a game's locale must never
            // reach the bytes that are hashed or sent.
            var culture = new CultureInfo("de-DE");
            CultureInfo.DefaultThreadCurrentCulture = culture;
            Thread.CurrentThread.CurrentCulture = culture;
            var cases = new List<TestCase>();
            var methods = typeof(TestRunner).Assembly.GetTypes()
                .SelectMany(t => t.GetMethods(BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic))
                .OrderBy(m => m.DeclaringType.Name, StringComparer.Ordinal).ThenBy(m => m.Name, StringComparer.Ordinal);
            foreach (var m in methods)
            {
                string prefix = m.DeclaringType.Name + "." + m.Name;
                if (m.GetCustomAttribute<TestAttribute>() != null)
                {
                    var method = m;
                    cases.Add(new TestCase(prefix, () =>
                    {
                        object r = method.Invoke(null, null);
                        return r as Task ?? Task.FromResult(0);
                    }));
                }
                else if (m.GetCustomAttribute<TestCasesAttribute>() != null)
                {
                    try
                    {
                        foreach (TestCase c in (IEnumerable<TestCase>)m.Invoke(null, null))
                            cases.Add(new TestCase(prefix + "/" + c.Name, c.Run));
                    }
                    catch (Exception e)
                    {
                        var error = Unwrap(e);
                        cases.Add(new TestCase(prefix, () => { throw error; }));
                    }
                }
            }
            int passed = 0, failed = 0;
            foreach (var c in cases)
            {
                if (filter != null && c.Name.IndexOf(filter, StringComparison.Ordinal) < 0) continue;
                try
                {
                    var run = Task.Run(c.Run);
                    if (await Task.WhenAny(run, Task.Delay(TimeSpan.FromSeconds(60))) != run)
                        throw new AssertionException("timed out after 60 s");
                    await run;
                    passed++;
                }
                catch (Exception e)
                {
                    failed++;
                    var inner = Unwrap(e);
                    Console.WriteLine("FAIL " + c.Name + ": " + (inner is AssertionException ? inner.Message : inner.ToString()));
                }
            }
            Console.WriteLine(passed.ToString(CultureInfo.InvariantCulture) + " passed, " + failed.ToString(CultureInfo.InvariantCulture) + " failed");
            return failed == 0 && passed > 0 ? 0 : 1;
        }

        static Exception Unwrap(Exception e)
        {
            while ((e is TargetInvocationException || e is AggregateException) && e.InnerException != null) e = e.InnerException;
            return e;
        }
    }
}
