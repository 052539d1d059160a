using HiddenCost.TestSupport;

namespace HiddenCost.Wpa.Tests.Contract;

/// <summary>The real SDK's declarations as listed in ../shared/reference/wpa-sdk-api (header lines dropped).</summary>
public sealed class SdkApiListing
{
    private SdkApiListing(IReadOnlyList<string> header, IReadOnlyList<string> entries)
    {
        Header = header;
        Entries = entries;
        EntrySet = entries.ToHashSet(StringComparer.Ordinal);
        TypeLines = entries.Where(line => Fields(line)[1] == "type").ToDictionary(line => Fields(line)[0], StringComparer.Ordinal);
    }

    public IReadOnlyList<string> Header { get; }
    public IReadOnlyList<string> Entries { get; }
    public IReadOnlySet<string> EntrySet { get; }

    /// <summary>Type name → its type line.</summary>
    public IReadOnlyDictionary<string, string> TypeLines { get; }

    /// <summary>The 1.2.16 listing, the API every WPA hosting SDK 1.2 or later provides.</summary>
    public static SdkApiListing Sdk1216() =>
        Load(Path.Combine(SharedFolder.Require(), "reference", "wpa-sdk-api", "Microsoft.Performance.SDK-1.2.16.api.txt"));

    public static SdkApiListing Load(string path)
    {
        var lines = File.ReadAllLines(path);
        return new SdkApiListing(
            lines.Where(line => line.StartsWith('#')).ToList(),
            lines.Where(line => line.Length > 0 && !line.StartsWith('#')).ToList());
    }

    /// <summary>The value of a <c># key: value</c> header line.</summary>
    public string HeaderValue(string key) =>
        Header.Select(line => line.TrimStart('#', ' '))
            .First(line => line.StartsWith(key + ": ", StringComparison.Ordinal))[(key.Length + 2)..];

    public static string[] Fields(string line) => line.Split(" | ");
}
