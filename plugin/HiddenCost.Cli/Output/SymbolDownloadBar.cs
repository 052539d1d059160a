using HiddenCost.Symbols.Store;
using Spectre.Console;

namespace HiddenCost.Cli.Output;

/// <summary>
/// Shows the resolver's PDB downloads on the interactive progress bar, one line per file under the trace's line. The
/// resolver is made before any bar exists and reports from its download threads, so reports go to the bar shown now
/// (<see cref="ShowOn"/>), and are dropped when none is.
/// </summary>
public sealed class SymbolDownloadBar : IProgress<SymbolDownloadProgress>
{
    private readonly object _lock = new();
    private readonly Dictionary<string, ProgressTask> _tasks = new(StringComparer.Ordinal);
    private ProgressContext? _context;

    /// <summary>Shows downloads on <paramref name="context"/> until the returned scope is disposed.</summary>
    public IDisposable ShowOn(ProgressContext context)
    {
        lock (_lock)
        {
            _context = context;
            _tasks.Clear();
        }
        return new Scope(this);
    }

    public void Report(SymbolDownloadProgress value)
    {
        lock (_lock)
        {
            if (_context is null) return;
            if (!_tasks.TryGetValue(value.Url, out var task))
                _tasks[value.Url] = task = _context.AddTask(Markup.Escape("↓ " + FileName(value.Url)), maxValue: Math.Max(1, value.TotalBytes ?? 1));
            if (value.TotalBytes is > 0 and var total && task.MaxValue != total) task.MaxValue = total;
            task.Value = value.TotalBytes is > 0 ? value.BytesReceived : 0;
            if (value.Completed)
            {
                task.Value = task.MaxValue;
                task.StopTask();
            }
        }
    }

    private static string FileName(string url)
    {
        int slash = url.LastIndexOf('/');
        return slash >= 0 && slash < url.Length - 1 ? url[(slash + 1)..] : url;
    }

    private sealed class Scope(SymbolDownloadBar bar) : IDisposable
    {
        public void Dispose()
        {
            lock (bar._lock) bar._context = null;
        }
    }
}
