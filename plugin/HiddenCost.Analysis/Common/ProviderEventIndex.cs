namespace HiddenCost.Analysis.Common;

/// <summary>
/// Numbers manifest events' (provider, event id) pairs 0, 1, 2… in the order added, for analyses that count or look
/// up every EVENT_HEADER event by its kind. A small cache of recent pairs (direct mapped, misses included) sits in
/// front of the dictionary: hashing a (Guid, ushort) tuple for every event cost an all-tables pass more than 3%,
/// and a trace's events come from a few kinds at a time. The cache only repeats what the dictionary says. Whoever
/// numbers a fixed set of pairs up front and then finds each event's passes over most events on their id alone: one
/// bit per id says whether any pair has it.
/// </summary>
public sealed class ProviderEventIndex
{
    private const int RecentBits = 6;
    private readonly Dictionary<(Guid Provider, ushort Id), int> _numbers = new();
    private readonly Recent[] _recent = new Recent[1 << RecentBits];
    private readonly ulong[] _idsNumbered = new ulong[(ushort.MaxValue + 1) / 64];

    /// <summary>How many pairs have a number.</summary>
    public int Count => _numbers.Count;

    /// <summary>The pair's number, giving it the next one when it has none.</summary>
    public int Add(Guid provider, ushort id) => Lookup(provider, id, add: true);

    /// <summary>The pair's number; -1 when it has none.</summary>
    public int Find(Guid provider, ushort id) => (_idsNumbered[id >> 6] & 1UL << id) == 0 ? -1 : Lookup(provider, id, add: false);

    private int Lookup(Guid provider, ushort id, bool add)
    {
        ref var slot = ref _recent[(int)((uint)(provider.GetHashCode() + id * -1640531535) >> (32 - RecentBits))];
        if (slot.IdPlusOne == id + 1 && slot.Provider == provider && (slot.Number >= 0 || !add)) return slot.Number;
        if (!_numbers.TryGetValue((provider, id), out int number))
        {
            number = -1;
            if (add)
            {
                _numbers[(provider, id)] = number = _numbers.Count;
                _idsNumbered[id >> 6] |= 1UL << id;
            }
        }
        slot = new Recent(provider, id + 1, number);
        return number;
    }

    /// <summary>A cached answer; <see cref="IdPlusOne"/> 0 is an empty slot.</summary>
    private readonly record struct Recent(Guid Provider, int IdPlusOne, int Number);
}
