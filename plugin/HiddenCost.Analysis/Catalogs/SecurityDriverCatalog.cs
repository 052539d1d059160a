using System.Diagnostics.CodeAnalysis;
using System.Globalization;
using System.Reflection;

namespace HiddenCost.Analysis.Catalogs;

/// <summary>
/// Kernel module file name → vendor, product and category of security and file-system filter drivers, built
/// from public facts (Microsoft's allocated minifilter altitudes, vendor naming; sources in the data file's
/// header). The Syscall Hook Overhead table names culprits with it; the stack tags are generated from it.
/// </summary>
/// <remarks>
/// The shipped catalogue is the embedded <c>SecurityDrivers.tsv</c>; <see cref="Default"/> parses it once.
/// Lookups ignore case and accept a full image path (<c>\SystemRoot\System32\drivers\TEDRDRV.SYS</c>).
/// </remarks>
public sealed class SecurityDriverCatalog
{
    /// <summary>Manifest resource name of the shipped data file.</summary>
    public const string ResourceName = "HiddenCost.Analysis.Catalogs.SecurityDrivers.tsv";

    /// <summary>The source codes the data file may use; its header says what each one is.</summary>
    public static IReadOnlySet<string> KnownSources { get; } =
        new HashSet<string>(StringComparer.Ordinal) { "ALT", "EDRRECON", "EDRCHECK", "STACKTAGS", "CASE", "CURATED" };

    private const int FieldCount = 6;
    private static readonly Lazy<SecurityDriverCatalog> Embedded = new(LoadEmbedded);
    private readonly Dictionary<string, SecurityDriverEntry> _byModule;

    private SecurityDriverCatalog(IReadOnlyList<SecurityDriverEntry> entries, Dictionary<string, SecurityDriverEntry> byModule)
    {
        Entries = entries;
        _byModule = byModule;
    }

    /// <summary>The catalogue shipped in this assembly.</summary>
    public static SecurityDriverCatalog Default => Embedded.Value;

    /// <summary>Every entry, in file order.</summary>
    public IReadOnlyList<SecurityDriverEntry> Entries { get; }

    public int Count => Entries.Count;

    /// <summary>Looks a module up in the shipped catalogue: <c>SecurityDriverCatalog.TryGet("TEDRDRV.SYS", out var e)</c>.</summary>
    public static bool TryGet(string moduleNameOrPath, [NotNullWhen(true)] out SecurityDriverEntry? entry) =>
        Default.TryFind(moduleNameOrPath, out entry);

    /// <summary>Looks a module up by file name, ignoring case and any directory part.</summary>
    public bool TryFind(string moduleNameOrPath, [NotNullWhen(true)] out SecurityDriverEntry? entry)
    {
        ArgumentNullException.ThrowIfNull(moduleNameOrPath);
        return _byModule.TryGetValue(FileNameOf(moduleNameOrPath), out entry);
    }

    /// <summary>The file-name part of a Windows or NT path (<c>\Device\HarddiskVolume2\...\x.sys</c> → <c>x.sys</c>).</summary>
    public static string FileNameOf(string moduleNameOrPath)
    {
        var cut = moduleNameOrPath.AsSpan().LastIndexOfAny('\\', '/');
        return (cut < 0 ? moduleNameOrPath : moduleNameOrPath[(cut + 1)..]).Trim();
    }

    /// <summary>Reads a catalogue file; errors name the file, line and rule.</summary>
    public static SecurityDriverCatalog Load(string path)
    {
        using var reader = new StreamReader(path);
        return Parse(reader, path);
    }

    /// <summary>
    /// Parses catalogue text. Lines starting with <c>#</c> and blank lines are ignored; every other line has
    /// six tab-separated fields. Throws <see cref="CatalogFormatException"/> on the first bad line.
    /// </summary>
    public static SecurityDriverCatalog Parse(TextReader reader, string sourceName)
    {
        var entries = new List<SecurityDriverEntry>();
        var byModule = new Dictionary<string, SecurityDriverEntry>(StringComparer.OrdinalIgnoreCase);
        var firstLine = new Dictionary<string, int>(StringComparer.OrdinalIgnoreCase);
        int lineNumber = 0;
        for (string? line = reader.ReadLine(); line is not null; line = reader.ReadLine())
        {
            lineNumber++;
            if (line.Length == 0 || line[0] == '#' || string.IsNullOrWhiteSpace(line)) continue;
            var entry = ParseLine(line, sourceName, lineNumber);
            if (firstLine.TryGetValue(entry.Module, out int previous))
                throw new CatalogFormatException(sourceName, lineNumber, "duplicate-module",
                    $"'{entry.Module}' is already defined on line {previous} (vendor '{byModule[entry.Module].Vendor}'); " +
                    "merge the two lines (join several companies with \" / \")");
            firstLine.Add(entry.Module, lineNumber);
            byModule.Add(entry.Module, entry);
            entries.Add(entry);
        }
        if (entries.Count == 0)
            throw new CatalogFormatException(sourceName, Math.Max(lineNumber, 1), "empty-catalogue", "no entries found");
        return new SecurityDriverCatalog(entries, byModule);
    }

    private static SecurityDriverEntry ParseLine(string line, string source, int lineNumber)
    {
        var fields = line.Split('\t');
        if (fields.Length != FieldCount)
            throw new CatalogFormatException(source, lineNumber, "field-count",
                $"expected {FieldCount} tab-separated fields (Module, Vendor, Product, Category, Altitudes, Sources), found {fields.Length}");
        string module = fields[0], vendor = fields[1], product = fields[2], category = fields[3];
        if (module.Length == 0 || module.Trim() != module || module.IndexOfAny(['\\', '/', ':', ' ']) >= 0
            || !module.Contains('.') || module.EndsWith('.'))
            throw new CatalogFormatException(source, lineNumber, "module-name",
                $"'{module}' is not a bare file name with an extension");
        if (vendor.Trim().Length == 0)
            throw new CatalogFormatException(source, lineNumber, "empty-vendor", $"'{module}' has no vendor");
        if (category.Trim().Length == 0)
            throw new CatalogFormatException(source, lineNumber, "empty-category", $"'{module}' has no category");

        var altitudes = Split(fields[4]);
        foreach (var a in altitudes)
            if (!decimal.TryParse(a, NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out _))
                throw new CatalogFormatException(source, lineNumber, "altitude", $"'{a}' is not a decimal altitude");

        var sources = Split(fields[5]);
        if (sources.Length == 0)
            throw new CatalogFormatException(source, lineNumber, "empty-sources", $"'{module}' names no source");
        foreach (var s in sources)
            if (!KnownSources.Contains(s))
                throw new CatalogFormatException(source, lineNumber, "unknown-source",
                    $"'{s}' is not one of {string.Join(", ", KnownSources.Order(StringComparer.Ordinal))}");
        if (altitudes.Length > 0 && !sources.Contains("ALT"))
            throw new CatalogFormatException(source, lineNumber, "altitude-source",
                $"'{module}' lists altitudes but not the ALT source they come from");

        return new SecurityDriverEntry(module, vendor, product, category, altitudes, sources);
    }

    private static string[] Split(string field) =>
        field.Split(';', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);

    private static SecurityDriverCatalog LoadEmbedded()
    {
        using var stream = typeof(SecurityDriverCatalog).Assembly.GetManifestResourceStream(ResourceName)
            ?? throw new InvalidOperationException($"resource {ResourceName} is missing from {typeof(SecurityDriverCatalog).Assembly.GetName().Name}");
        using var reader = new StreamReader(stream);
        return Parse(reader, ResourceName);
    }
}
