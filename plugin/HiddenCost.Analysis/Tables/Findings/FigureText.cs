using System.Globalization;

namespace HiddenCost.Analysis.Tables.Findings;

/// <summary>How findings write their numbers: grouped thousands, one precision per unit, invariant culture.</summary>
internal static class FigureText
{
    public static string Count(double n) => n.ToString("N0", CultureInfo.InvariantCulture);

    public static string Bytes(double n) => n.ToString("N0", CultureInfo.InvariantCulture) + " bytes";

    public static string Ms(double ms) => ms.ToString("N1", CultureInfo.InvariantCulture) + " ms";

    public static string Us(double us) => us.ToString("N1", CultureInfo.InvariantCulture) + " µs";

    public static string Fixed(double x, int decimals) => x.ToString("N" + decimals, CultureInfo.InvariantCulture);

    public static string Percent(double p) => p.ToString("N1", CultureInfo.InvariantCulture) + "%";

    public static string Times(double x) => x.ToString("N1", CultureInfo.InvariantCulture) + "×";

    /// <summary>A byte size people say: "2 MiB", "64 KiB", else in bytes.</summary>
    public static string Size(long bytes) =>
        bytes >= 1 << 20 && bytes % (1 << 20) == 0 ? $"{bytes >> 20} MiB"
        : bytes >= 1 << 10 && bytes % (1 << 10) == 0 ? $"{bytes >> 10} KiB"
        : Bytes(bytes);

    /// <summary>"1.5 GiB/s", "120.0 MiB/s": a zeroing rate.</summary>
    public static string Rate(double bytesPerSecond) =>
        bytesPerSecond >= FindingThresholds.GiB
            ? (bytesPerSecond / FindingThresholds.GiB).ToString("N1", CultureInfo.InvariantCulture) + " GiB/s"
            : (bytesPerSecond / FindingThresholds.MiB).ToString("N1", CultureInfo.InvariantCulture) + " MiB/s";

    /// <summary>"OrderRouter.exe (1200)", or the name alone when the process id is unknown.</summary>
    public static string Process(string name, long? pid) => pid is { } p ? $"{name} ({p.ToString(CultureInfo.InvariantCulture)})" : name;

    public static string Hex(long id) => "0x" + id.ToString("X", CultureInfo.InvariantCulture);
}
