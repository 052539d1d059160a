namespace HiddenCost.Analysis.Tables.Findings;

/// <summary>
/// One problem's thresholds: the figure it is judged by (<see cref="Measure"/>), the value from which it is a low,
/// medium or high finding (at or above), and the least cost worth a finding at all. README.md in this folder gives the
/// reasoning behind every default.
/// </summary>
public sealed record Levels(string Measure, string Unit, double Low, double Medium, double High, double MinimumCostMs)
{
    /// <summary>The severity of <paramref name="measure"/> at <paramref name="costMs"/>: none below the cost floor or the low level.</summary>
    public Severity Of(double measure, double costMs) =>
        costMs < MinimumCostMs || double.IsNaN(measure) ? Severity.None
        : measure >= High ? Severity.High
        : measure >= Medium ? Severity.Medium
        : measure >= Low ? Severity.Low
        : Severity.None;
}

/// <summary>
/// Every threshold Findings uses, in one place. <see cref="Default"/> is what HiddenCost ships; <c>--thresholds FILE</c>
/// replaces any of them (<see cref="ThresholdsFile"/>).
/// </summary>
public sealed record FindingThresholds(
    Levels SyscallHook, Levels SpinWait, Levels OpenMp, Levels NotifyBuffer, Levels EventLogRender,
    double ZeroingBytesPerSecond, long RightSizedBufferBytes)
{
    public const double GiB = 1024.0 * 1024.0 * 1024.0;
    public const double MiB = 1024.0 * 1024.0;

    public static FindingThresholds Default { get; } = new(
        SyscallHook: new("hook overhead per syscall", "µs", Low: 1, Medium: 5, High: 20, MinimumCostMs: 5),
        SpinWait: new("wasted share of spin CPU", "%", Low: 25, Medium: 50, High: 75, MinimumCostMs: 10),
        OpenMp: new("OpenMP spin-wait share of the process's CPU", "%", Low: 10, Medium: 25, High: 50, MinimumCostMs: 50),
        NotifyBuffer: new("bytes zeroed per second", "bytes/s", Low: 16 * MiB, Medium: 128 * MiB, High: 1 * GiB, MinimumCostMs: 1),
        EventLogRender: new("service CPU per rendered message", "ms", Low: 0.05, Medium: 0.2, High: 0.5, MinimumCostMs: 10),
        ZeroingBytesPerSecond: 10 * GiB,
        RightSizedBufferBytes: DirectoryNotify.BufferRecommendation.MaximumRecommended);
}
