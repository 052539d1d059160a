using System.Runtime.InteropServices;

namespace HiddenCost.Analysis.Tables.SpinWait;

/// <summary>
/// The spin runs not spun inside a known contention, in the order they ended, until the end of the replay places them
/// (a run goes to the contention of its call site nearest in time, or counts as spin only when its process later proves
/// its runtime path spins: only the end knows). A trace whose managed code calls into the runtime all the time (the
/// benchmark's: <c>DateTime.Now</c> in a loop) ends hundreds of thousands of such runs, so they are packed (48 bytes;
/// threads, call sites and the rare runs of several runtime paths as indexes) into chunks of which only the newest stays
/// in memory; older ones go to a temporary file, as the event log's do. When the file fails they stay in memory.
/// </summary>
internal sealed class UnplacedRuns(SpinLogOptions options)
{
    private SpillFile _file = new(options.Directory);
    private SpillableChunks<PackedRun>? _runs;
    private readonly List<ThreadSpinState> _threads = new();
    private readonly Dictionary<ThreadSpinState, int> _threadIndex = new(ReferenceEqualityComparer.Instance);
    private readonly List<string> _sites = new();
    private readonly Dictionary<string, int> _siteIndex = new(StringComparer.Ordinal);
    private readonly List<RuntimePaths> _severalPaths = new();

    /// <summary>Why runs stayed in memory (the temporary file failed); null when none did.</summary>
    public string? SpillFailure { get; private set; }

    public long Count => _runs?.Count ?? 0;

    /// <summary>Bytes written to temporary files so far (for tests).</summary>
    internal long SpilledBytes => _spilledEarlier + _file.Length;

    private long _spilledEarlier;

    public void Add(ThreadSpinState thread, in SpinRun run)
    {
        _runs ??= new SpillableChunks<PackedRun>(options.RunChunkShift, options.ResidentRunChunks, _file);
        int paths = -1;
        if (run.Paths.HasSeveral)
        {
            paths = _severalPaths.Count;
            _severalPaths.Add(run.Paths);
        }
        _runs.Append(new PackedRun(run.StartNs, run.EndNs, run.CpuNs, run.Paths.First, Index(_threads, _threadIndex, thread),
            run.Site is null ? -1 : Index(_sites, _siteIndex, run.Site), paths, run.Named, run.Wasted));
    }

    /// <summary>Hands every run to <paramref name="place"/> in the order they were added (a run's LastPath is not kept), then holds none.</summary>
    public void PlaceAll(Action<ThreadSpinState, SpinRun> place)
    {
        if (_runs is { } runs)
        {
            var reader = runs.OpenReader();
            for (long i = 0; i < runs.Count; i++)
            {
                ref readonly var r = ref reader.At(i);
                var paths = r.SeveralPaths >= 0 ? _severalPaths[r.SeveralPaths] : default(RuntimePaths).With(r.FirstPath);
                place(_threads[r.Thread], new SpinRun(r.StartNs, r.EndNs, r.CpuNs, r.Site < 0 ? null : _sites[r.Site], r.Named, r.Wasted, paths));
            }
        }
        SpillFailure ??= _file.Failure;
        _spilledEarlier += _file.Length;
        _file.Dispose();
        _file = new SpillFile(options.Directory);
        _runs = null;
        _threads.Clear();
        _threadIndex.Clear();
        _sites.Clear();
        _siteIndex.Clear();
        _severalPaths.Clear();
    }

    private static int Index<T>(List<T> items, Dictionary<T, int> index, T item) where T : notnull
    {
        if (!index.TryGetValue(item, out int i))
        {
            index[item] = i = items.Count;
            items.Add(item);
        }
        return i;
    }

    [StructLayout(LayoutKind.Sequential, Pack = 4)]
    private readonly record struct PackedRun(long StartNs, long EndNs, long CpuNs, ulong FirstPath, int Thread, int Site, int SeveralPaths, bool Named, bool Wasted);
}
