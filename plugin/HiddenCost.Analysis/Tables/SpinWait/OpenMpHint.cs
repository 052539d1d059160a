using System.Globalization;

namespace HiddenCost.Analysis.Tables.SpinWait;

/// <summary>
/// The setting to suggest when OpenMP worker threads spin-wait a large share of their process's CPU. Intel's and
/// LLVM's runtimes keep idle workers spinning for KMP_BLOCKTIME (200 ms by default) after each parallel region;
/// KMP_BLOCKTIME=0 or OMP_WAIT_POLICY=PASSIVE makes them sleep at once. MSVC's vcomp has no KMP_BLOCKTIME; the
/// standard OMP_WAIT_POLICY=PASSIVE is the request the OpenMP specification defines (an implementation may ignore it).
/// </summary>
public static class OpenMpHint
{
    /// <summary>Below this share of the process's sampled CPU, OpenMP runtime time is ordinary scheduling overhead.</summary>
    public const double MinimumShare = 0.10;

    /// <summary>Below this much CPU the figure is too small to act on.</summary>
    public const long MinimumNs = 50_000_000;

    public static string? For(string module, long openMpNs, long processNs)
    {
        if (openMpNs < MinimumNs || processNs <= 0 || (double)openMpNs / processNs < MinimumShare) return null;
        var share = string.Create(CultureInfo.InvariantCulture, $"{100.0 * openMpNs / processNs:0}%");
        return module.StartsWith("vcomp", StringComparison.OrdinalIgnoreCase)
            ? $"{share} of the process's CPU is OpenMP threads spin-waiting in {module}: set OMP_WAIT_POLICY=PASSIVE, or build with /openmp:llvm and set KMP_BLOCKTIME=0"
            : $"{share} of the process's CPU is OpenMP threads spin-waiting in {module}: set KMP_BLOCKTIME=0 (or OMP_WAIT_POLICY=PASSIVE) so idle workers sleep instead of spinning for the default 200 ms";
    }
}
