using System.Globalization;

namespace HiddenCost.Benchmarks;

/// <summary>
/// The CPU each thread of this process used during a pass, by thread name (Linux: /proc/self/task/*/stat, read
/// every 20 ms while the pass runs, since a thread's figures go when it ends; so a thread's last 20 ms may be
/// missing). What shows which thread bounds the wall time: on two cores a pass takes at least its busiest thread's CPU.
/// </summary>
internal sealed class ThreadCpuSampler : IDisposable
{
    private readonly Dictionary<int, (string Name, long Ticks)> _first = new(), _last = new();
    private readonly Thread _thread;
    private volatile bool _stop;

    public ThreadCpuSampler()
    {
        Sample(_first);
        _thread = new Thread(Run) { IsBackground = true, Name = "hc-sampler" };
        _thread.Start();
    }

    public static bool Applies => Directory.Exists("/proc/self/task");

    /// <summary>CPU seconds per thread name (threads of one name summed), the sampler's own left out.</summary>
    public IReadOnlyList<(string Name, double Seconds)> Stop()
    {
        _stop = true;
        _thread.Join();
        Sample(_last);
        return _last.Where(t => t.Value.Name != "hc-sampler")
            .GroupBy(t => t.Value.Name)
            .Select(g => (g.Key, g.Sum(t => t.Value.Ticks - (_first.TryGetValue(t.Key, out var f) && f.Name == t.Value.Name ? f.Ticks : 0)) / 100.0))
            .Where(t => t.Item2 > 0)
            .OrderByDescending(t => t.Item2)
            .ToArray();
    }

    public void Dispose() => _stop = true;

    private void Run()
    {
        while (!_stop)
        {
            Sample(_last);
            Thread.Sleep(20);
        }
    }

    /// <summary>
    /// A thread's CPU (user and system) in clock ticks of 10 ms, from its /proc stat line: utime and stime are fields 14
    /// and 15, counted from the state (field 3) after the name, which may hold spaces and parentheses.
    /// </summary>
    public static long TicksOf(string stat)
    {
        var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
        return long.Parse(fields[11], CultureInfo.InvariantCulture) + long.Parse(fields[12], CultureInfo.InvariantCulture);
    }

    private static string NameOf(string stat) => stat[(stat.IndexOf('(') + 1)..stat.LastIndexOf(')')];

    private static void Sample(Dictionary<int, (string, long)> into)
    {
        foreach (var dir in Directory.EnumerateDirectories("/proc/self/task"))
        {
            try
            {
                var stat = File.ReadAllText(Path.Combine(dir, "stat"));
                into[int.Parse(Path.GetFileName(dir), CultureInfo.InvariantCulture)] = (NameOf(stat), TicksOf(stat));
            }
            catch (IOException)
            {
                // the thread ended between listing and reading
            }
        }
    }
}
