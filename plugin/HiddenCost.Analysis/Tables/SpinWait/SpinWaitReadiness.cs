using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Catalogs;
using HiddenCost.Analysis.Common;
using HiddenCost.Etl;
using HiddenCost.Etl.Records;

namespace HiddenCost.Analysis.Tables.SpinWait;

/// <summary>
/// Counts, in the one pass, the events the requirement catalogue lists for the Spin-Wait tables, and turns the
/// required ones the trace lacks into notes that name the events, how to record them and the profile that does.
/// One array or dictionary lookup per event.
/// </summary>
internal sealed class SpinWaitReadiness
{
    private readonly ProblemRequirements _problem = RequirementCatalog.SpinWaitCostPerLock;
    private readonly int[] _kernel = new int[1 << 16];
    private readonly ProviderEventIndex _providerEvents = new();
    private readonly List<List<int>> _requirementsOf = new(); // by _providerEvents' number: the requirements selecting it
    private readonly long[] _counts;

    public SpinWaitReadiness()
    {
        _counts = new long[_problem.Events.Count];
        for (int i = 0; i < _problem.Events.Count; i++)
        {
            var selector = _problem.Events[i].Events;
            foreach (var id in selector.Ids)
            {
                if (selector.Origin == EventOrigin.Kernel)
                {
                    // Several requirements may select one kernel event (StackWalk is listed twice); the first, required one counts it.
                    ref var slot = ref _kernel[selector.Group << 8 | id];
                    if (slot == 0) slot = i + 1;
                }
                else
                {
                    int n = _providerEvents.Add(selector.ProviderId, (ushort)id);
                    if (n == _requirementsOf.Count) _requirementsOf.Add(new List<int>(1));
                    _requirementsOf[n].Add(i);
                }
            }
        }
    }

    public void Observe(in EtwEvent e)
    {
        if (e.IsKernel)
        {
            int slot = _kernel[e.Group << 8 | e.Opcode];
            if (slot != 0) _counts[slot - 1]++;
        }
        else if (e.Kind == RecordHeaderKind.EventHeader && _providerEvents.Find(e.ProviderId, e.EventId) is var n and >= 0)
        {
            foreach (var i in _requirementsOf[n]) _counts[i]++;
        }
    }

    /// <summary>How many events of the requirement named <paramref name="name"/> the trace had.</summary>
    public long Count(string name)
    {
        long n = 0;
        for (int i = 0; i < _counts.Length; i++)
            if (_problem.Events[i].Name == name) n += _counts[i];
        return n;
    }

    /// <summary>One note per required kind of event the trace has none of.</summary>
    public IEnumerable<TableNote> Notes()
    {
        var seen = new HashSet<string>();
        for (int i = 0; i < _counts.Length; i++)
        {
            var r = _problem.Events[i];
            if (r.Necessity != Necessity.Required || Count(r.Name) > 0 || !seen.Add(r.Name)) continue;
            yield return SpinWaitNotes.MissingEvents(r, _problem.WprStartCommand);
        }
    }
}
