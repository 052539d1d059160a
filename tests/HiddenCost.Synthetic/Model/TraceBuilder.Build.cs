using HiddenCost.Synthetic.Etl;

namespace HiddenCost.Synthetic.Model;

public sealed partial class TraceBuilder
{
    /// <summary>
    /// Finishes the trace: context switches and ready events from the lanes, CPU samples, start and end rundown.
    /// The builder cannot be changed afterwards.
    /// </summary>
    public BuiltTrace Build()
    {
        EnsureNotBuilt();
        var activityEnd = Math.Max(
            _lanes.Where(l => l.Count > 0).Select(l => l[^1].End).DefaultIfEmpty(ActivityStart).Max(),
            _records.Select(r => r.Timestamp).DefaultIfEmpty(ActivityStart).Max());
        var switches = EmitScheduling();
        var samples = EmitSamples(activityEnd);
        EmitStartRundown();
        EmitEndRundown();
        _built = true;
        return new BuiltTrace(Etl, _records.ToArray(), samples, switches, ActivityStart, activityEnd);
    }
}

/// <summary>
/// A finished synthetic trace: every record written (besides the logfile header), plus what the builder knows
/// about the samples and context switches it wrote, for computing ground truth.
/// </summary>
public sealed class BuiltTrace
{
    private byte[]? _bytes;

    internal BuiltTrace(EtlTraceSettings settings, IReadOnlyList<TraceRecord> records, IReadOnlyList<EmittedSample> samples,
        IReadOnlyList<EmittedContextSwitch> contextSwitches, long activityStart, long activityEnd)
    {
        Settings = settings;
        Records = records;
        Samples = samples;
        ContextSwitches = contextSwitches;
        ActivityStart = activityStart;
        ActivityEnd = activityEnd;
    }

    public EtlTraceSettings Settings { get; }

    /// <summary>Every record, in the order added (the writer sorts each CPU's records by time, keeping this order for ties).</summary>
    public IReadOnlyList<TraceRecord> Records { get; }

    public IReadOnlyList<EmittedSample> Samples { get; }
    public IReadOnlyList<EmittedContextSwitch> ContextSwitches { get; }
    public long ActivityStart { get; }
    public long ActivityEnd { get; }

    /// <summary>The .etl file (computed once).</summary>
    public byte[] Bytes
    {
        get
        {
            if (_bytes is not null) return _bytes;
            var writer = new EtlFileWriter(Settings);
            writer.AddRange(Records);
            return _bytes = writer.ToArray();
        }
    }

    public void Save(string path) => File.WriteAllBytes(path, Bytes);

    /// <summary>Nanoseconds since the trace start.</summary>
    public long ToTraceNs(long qpc) => TraceClock.ToTraceNanoseconds(Settings, qpc);

    public double TicksToMs(long ticks) => ticks * 1000.0 / Settings.PerfFrequency;
}
