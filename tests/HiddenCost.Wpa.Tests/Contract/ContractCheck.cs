namespace HiddenCost.Wpa.Tests.Contract;

/// <summary>
/// Compares a contract's listing with the real SDK's: every member line must occur verbatim; a type line must
/// equal the real one except that it may implement fewer interfaces.
/// </summary>
public static class ContractCheck
{
    public static IReadOnlyList<string> Violations(IEnumerable<string> contractLines, SdkApiListing sdk)
    {
        var violations = new List<string>();
        foreach (var line in contractLines)
        {
            var fields = SdkApiListing.Fields(line);
            if (fields[1] != "type")
            {
                if (!sdk.EntrySet.Contains(line)) violations.Add(line);
                continue;
            }
            if (!sdk.TypeLines.TryGetValue(fields[0], out var real) || !TypeLineMatches(fields, SdkApiListing.Fields(real)))
                violations.Add(line);
        }
        return violations;
    }

    private static bool TypeLineMatches(string[] contract, string[] real)
    {
        const int implementsField = 5;
        if (contract.Length != real.Length) return false;
        for (int i = 0; i < contract.Length; i++)
            if (i != implementsField && contract[i] != real[i]) return false;
        var realInterfaces = Interfaces(real[implementsField]).ToHashSet(StringComparer.Ordinal);
        return Interfaces(contract[implementsField]).All(realInterfaces.Contains);
    }

    /// <summary>Splits <c>implements=A,B`1&lt;C,D&gt;</c> at the commas that separate interfaces, not type arguments.</summary>
    public static IEnumerable<string> Interfaces(string field)
    {
        var list = field["implements=".Length..];
        if (list == "-") yield break;
        int depth = 0, start = 0;
        for (int i = 0; i < list.Length; i++)
        {
            if (list[i] == '<') depth++;
            else if (list[i] == '>') depth--;
            else if (list[i] == ',' && depth == 0)
            {
                yield return list[start..i];
                start = i + 1;
            }
        }
        yield return list[start..];
    }
}
