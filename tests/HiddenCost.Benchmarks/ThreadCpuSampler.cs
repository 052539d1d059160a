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

    private static void Sample(Dictionary<int, (string, long)> into)
    {
        foreach (var dir in Directory.EnumerateDirectories("/proc/self/task"))
        {
            try
            {
                var stat = File.ReadAllText(Path.Combine(dir, "stat"));
                int open = stat.IndexOf('('), close = stat.LastIndexOf(')');
                var fields = stat[(close + 2)..].Split(' ');
                long ticks = long.Parse(fields[11], CultureInfo.InvariantCulture) + long.Parse(fields[12], CultureInfo.InvariantCulture);
                into[int.Parse(Path.GetFileName(dir), CultureInfo.InvariantCulture)] = (stat[(open + 1)..close], ticks);
            }
            catch (IOException)
            {
                // the thread ended between listing and reading
            }
        }
    }
}
