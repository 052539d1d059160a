using System.Xml.Linq;
using HiddenCost.PackTool.Common;

namespace HiddenCost.PackTool.Wprp;

/// <summary>
/// Applies WPR's inheritance rules to a profile: a Base is applied first, then the profile's own elements with
/// their Operation (Set replaces, which is the default; Add unions; Remove subtracts). Used to check a profile
/// against the requirement catalogue; run the validator first, the resolver assumes references resolve.
/// </summary>
public static class WprpResolver
{
    public static EffectiveProfile Resolve(WprpDocument doc, string profileId)
    {
        var profile = doc.Find("Profile", profileId)
            ?? throw new ArgumentException($"{doc.FileName}: no profile with Id '{profileId}'", nameof(profileId));
        var collectors = ResolveCollectors(doc, profile, []);
        var keywords = new HashSet<string>(StringComparer.Ordinal);
        var stacks = new HashSet<string>(StringComparer.Ordinal);
        var providers = new List<EffectiveEventProvider>();
        foreach (var c in collectors.Values)
        {
            foreach (var sp in c.SystemProviderIds)
            {
                var (k, s) = ResolveSystemProvider(doc, sp, []);
                keywords.UnionWith(k);
                stacks.UnionWith(s);
            }
            foreach (var ep in c.EventProviderIds) providers.Add(ResolveEventProvider(doc, ep, []));
        }
        return new EffectiveProfile
        {
            Id = profileId,
            Line = profile.Line(),
            LoggingMode = profile.Attr("LoggingMode") ?? "",
            Collectors = collectors,
            SystemKeywords = keywords,
            Stacks = stacks,
            EventProviders = providers,
        };
    }

    private static Dictionary<string, CollectorSettings> ResolveCollectors(WprpDocument doc, XElement profile, HashSet<string> visiting)
    {
        var id = profile.Attr("Id") ?? "";
        if (!visiting.Add(id)) throw new InvalidOperationException($"{doc.FileName}: profile Base chain loops at '{id}'");
        var state = profile.Attr("Base") is { Length: > 0 } b && doc.Find("Profile", b) is { } baseProfile
            ? ResolveCollectors(doc, baseProfile, visiting).ToDictionary(kv => kv.Key, kv => kv.Value.Clone())
            : new Dictionary<string, CollectorSettings>(StringComparer.Ordinal);

        foreach (var collectors in profile.Children("Collectors"))
        {
            var op = collectors.Attr("Operation") ?? "Set";
            if (op == "Set") state.Clear();
            foreach (var use in collectors.Elements())
            {
                var kind = use.Name.LocalName;
                if (kind is not ("SystemCollectorId" or "EventCollectorId")) continue;
                var collectorId = use.Attr("Value") ?? "";
                if (op == "Remove")
                {
                    state.Remove(collectorId);
                    continue;
                }
                if (!state.TryGetValue(collectorId, out var c))
                    state[collectorId] = c = new CollectorSettings(collectorId, kind == "SystemCollectorId");
                Apply(use, c);
            }
        }
        return state;
    }

    private static void Apply(XElement use, CollectorSettings c)
    {
        if (use.Children("BufferSize").LastOrDefault() is { } size && int.TryParse(size.Attr("Value"), out var kb))
            c.BufferSizeKb = kb;
        if (use.Children("Buffers").LastOrDefault() is { } buffers && int.TryParse(buffers.Attr("Value"), out var n))
            c.Buffers = new BuffersSetting(n, buffers.Attr("PercentageOfTotalMemory") == "true",
                int.TryParse(buffers.Attr("MaximumBufferSpace"), out var max) ? max : null);
        foreach (var sp in use.Children("SystemProviderId"))
            if (sp.Attr("Value") is { } v && !c.SystemProviderIds.Contains(v)) c.SystemProviderIds.Add(v);
        foreach (var eps in use.Children("EventProviders"))
        {
            var ids = eps.Children("EventProviderId").Select(e => e.Attr("Value") ?? "").ToList();
            switch (eps.Attr("Operation") ?? "Set")
            {
                case "Set": c.EventProviderIds.Clear(); c.EventProviderIds.AddRange(ids); break;
                case "Add": c.EventProviderIds.AddRange(ids.Where(i => !c.EventProviderIds.Contains(i))); break;
                case "Remove": c.EventProviderIds.RemoveAll(ids.Contains); break;
            }
        }
    }

    private static (HashSet<string> Keywords, HashSet<string> Stacks) ResolveSystemProvider(WprpDocument doc, string id, HashSet<string> visiting)
    {
        var p = doc.Find("SystemProvider", id) ?? throw new InvalidOperationException($"{doc.FileName}: no SystemProvider '{id}'");
        if (!visiting.Add(id)) throw new InvalidOperationException($"{doc.FileName}: SystemProvider Base chain loops at '{id}'");
        var (keywords, stacks) = p.Attr("Base") is { Length: > 0 } b
            ? ResolveSystemProvider(doc, b, visiting)
            : (new HashSet<string>(StringComparer.Ordinal), new HashSet<string>(StringComparer.Ordinal));
        ApplySet(p, "Keywords", "Keyword", keywords);
        ApplySet(p, "Stacks", "Stack", stacks);
        return (keywords, stacks);
    }

    private static void ApplySet(XElement provider, string listName, string itemName, HashSet<string> set)
    {
        foreach (var list in provider.Children(listName))
        {
            var values = list.Children(itemName).Select(e => e.Attr("Value") ?? "").ToArray();
            switch (list.Attr("Operation") ?? "Set")
            {
                case "Set": set.Clear(); set.UnionWith(values); break;
                case "Add": set.UnionWith(values); break;
                case "Remove": set.ExceptWith(values); break;
            }
        }
    }

    private static EffectiveEventProvider ResolveEventProvider(WprpDocument doc, string id, HashSet<string> visiting)
    {
        var p = doc.Find("EventProvider", id) ?? throw new InvalidOperationException($"{doc.FileName}: no EventProvider '{id}'");
        if (!visiting.Add(id)) throw new InvalidOperationException($"{doc.FileName}: EventProvider Base chain loops at '{id}'");
        var result = p.Attr("Base") is { Length: > 0 } b
            ? ResolveEventProvider(doc, b, visiting) with { Id = id }
            : new EffectiveEventProvider(id, "", 5, 0, 0, false);
        if (p.Attr("Name") is { } name) result = result with { Name = name };
        if (byte.TryParse(p.Attr("Level"), out var level)) result = result with { Level = level };
        if (p.Attr("CaptureStateOnly") is { } cso) result = result with { CaptureStateOnly = cso == "true" };
        result = result with
        {
            Keywords = ApplyMask(p.Children("Keywords"), result.Keywords),
            CaptureStateOnSaveKeywords = ApplyMask(p.Children("CaptureStateOnSave"), result.CaptureStateOnSaveKeywords),
        };
        return result;
    }

    private static ulong ApplyMask(IEnumerable<XElement> lists, ulong mask)
    {
        foreach (var list in lists)
        {
            ulong bits = 0;
            foreach (var k in list.Children("Keyword"))
                if (WprpValidator.TryParseMask(k.Attr("Value"), out var m)) bits |= m;
            mask = (list.Attr("Operation") ?? "Set") switch
            {
                "Add" => mask | bits,
                "Remove" => mask & ~bits,
                _ => bits,
            };
        }
        return mask;
    }
}
