namespace HiddenCost.Analysis.Tables.Findings.Comparison;

/// <summary>
/// How much a figure may move between two recordings of the same behaviour without meaning anything: 10% of the before
/// value (run-to-run variation of the same workload), and never less than an absolute floor set by what the figure is
/// measured with — CPU from 1 ms samples moves by whole samples (2 ms), a per-syscall overhead by 0.5 µs, bytes by a page,
/// a share by 2 points, a ratio by 0.5. README.md in the Findings folder gives the table.
/// </summary>
public static class FigureNoise
{
    public const double Relative = 0.10;

    public static double Floor(string unit) => unit switch
    {
        "ms" => 2,
        "µs" => 0.5,
        "bytes" => 4096,
        "bytes/s" => 0,
        "%" => 2,
        "×" => 0.5,
        _ => 1, // counts
    };

    /// <summary>The noise band around <paramref name="before"/>.</summary>
    public static double Band(string unit, double before) => Math.Max(Floor(unit), Math.Abs(before) * Relative);

    /// <summary>Whether going from <paramref name="before"/> to <paramref name="after"/> is more than noise.</summary>
    public static bool Moved(string unit, double before, double after) => Math.Abs(after - before) > Band(unit, before);
}
