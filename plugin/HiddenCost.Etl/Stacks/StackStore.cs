namespace HiddenCost.Etl.Stacks;

/// <summary>
/// Interns stacks so each distinct one is stored once. A stack is a pair of parts (kernel, user); a part is a
/// frame sequence, deduplicated by content. A part can also be pending: a stack key referenced before the
/// event that defines its frames (the kernel logs KeyDelete/KeyRundown after the references); it reads as
/// empty until <see cref="ResolvePart"/>, and afterwards as the content part it turned out to be.
/// Part 0 is the empty part; <see cref="StackId.None"/> is no stack.
/// Memory follows the distinct stacks, not the keys: a kernel key lives until its KeyDelete and a trace defines the
/// same stacks under new keys again and again (net.4.5.2.x64 repeated: 16,000 key lifetimes a million events). When a
/// pending part turns out to duplicate a stored one, the stacks made with it are rewritten to that part (their ids
/// stay valid: a duplicate keeps its slot, 8 bytes, and leaves the index), and once the collector says nothing refers
/// to it any more (<see cref="Release"/>) its slot is reused for the next pending part.
/// A stack id the collector hands out (<see cref="InternUnheld"/>) that no ticket took and no listener kept
/// (<see cref="Hold"/> not called) can be forgotten once its pending parts turn out to duplicate a stack already
/// indexed: nobody has the id, and no lookup can return it (it is not in the index). Ids are never given again, so the
/// numbering (which ties are broken by) stays as it was; forgotten ids free their 8 bytes when a whole chunk of ids is
/// down to a few still known, which move to a small side table.
/// </summary>
public sealed class StackStore
{
    private ulong[] _frames = new ulong[4096];
    private int _frameCount;
    private Part[] _parts = new Part[256];
    private int _partCount = 1;
    private int[] _partBuckets = new int[256];
    // Stack ids grow with the trace (each key lifetime whose pending part turns out a duplicate keeps its id), so the
    // table of parts by id grows in chunks of 8,192 (64 KB, under the large-object threshold): no doubling that holds
    // twice the ids for a while and up to twice as many after.
    private const int StackChunkShift = 13, StackChunkSize = 1 << StackChunkShift;
    private readonly List<(int Kernel, int User)[]?> _stacks = new() { new (int, int)[StackChunkSize] };
    private readonly List<int> _knownInChunk = new() { 0 };
    // A chunk whose ids are almost all forgotten keeps its few known ones here instead (about 24 bytes each).
    private const int SparseChunkLimit = 512;
    private readonly Dictionary<int, (int Kernel, int User)> _sparse = new();
    // Ids made with a pending part that no ticket or listener has kept yet.
    private readonly HashSet<int> _unheld = new();
    private int _stackCount = 1;
    private readonly Dictionary<(int Kernel, int User), int> _stackIndex = new();
    // The stacks made with each part still pending, to rewrite when it resolves to a duplicate.
    private readonly Dictionary<int, List<int>> _stacksOfPending = new();
    private readonly Stack<List<int>> _spareLists = new();
    private const int MaxSpareLists = 4096;
    private readonly Stack<int> _freeParts = new();

    private struct Part
    {
        public int Offset;
        public int Count;
        public int Hash;
        public int Next;      // next part in the content bucket (0 = end)
        public int Alias;     // for a resolved pending part that duplicated an existing part: that part
        public bool Pending;
    }

    /// <summary>Distinct stacks interned (kernel/user pairs).</summary>
    public int StackCount => _stackCount - 1;

    /// <summary>Stacks the index finds by their parts: the distinct stacks, and those made with parts still pending.</summary>
    public int IndexedStacks => _stackIndex.Count;

    /// <summary>Part slots in use or free for reuse (content parts, pending key parts, duplicates not yet released).</summary>
    public int PartCount => _partCount - 1;

    /// <summary>Stack ids forgotten: nobody held them, and their frames turned out a duplicate of an indexed stack's.</summary>
    public long ForgottenStacks { get; private set; }

    /// <summary>Chunks of 8,192 stack ids still held in memory (for tests).</summary>
    internal int StackChunksHeld => _stacks.Count(c => c is not null);

    /// <summary>Frames stored in total.</summary>
    public int FrameCount => _frameCount;

    /// <summary>The part with exactly these frames (0 for none), added if new.</summary>
    public int InternPart(ReadOnlySpan<ulong> frames)
    {
        if (frames.IsEmpty) return 0;
        int existing = InternExisting(frames, out int hash);
        if (existing != 0) return existing;
        int id = NewPart();
        Store(id, frames, hash);
        return id;
    }

    /// <summary>A part whose frames are not known yet (a referenced stack key).</summary>
    public int NewPendingPart()
    {
        int id = NewPart();
        _parts[id].Pending = true;
        return id;
    }

    public bool IsPending(int part) => (uint)part < (uint)_partCount && _parts[part].Pending;

    /// <summary>Gives a pending part its frames. A part with the same frames already stored is shared.</summary>
    public void ResolvePart(int part, ReadOnlySpan<ulong> frames)
    {
        if (!IsPending(part)) return;
        _parts[part].Pending = false;
        _stacksOfPending.Remove(part, out var stacks);
        if (!frames.IsEmpty)
        {
            int existing = InternExisting(frames, out int hash);
            if (existing == 0) Store(part, frames, hash);
            else
            {
                _parts[part].Alias = existing;
                if (stacks is not null) RewriteStacks(stacks);
            }
        }
        if (stacks is not null && _unheld.Count > 0) Settle(stacks);
        if (stacks is not null && _spareLists.Count < MaxSpareLists)
        {
            // Most stacks wait on a pending part for a moment only: their lists are reused rather than left to the
            // collector (about 20 MB of lists and 30 MB of their arrays per 40 million events of an all-tables pass).
            stacks.Clear();
            _spareLists.Push(stacks);
        }
    }

    /// <summary>
    /// Ids nobody held whose parts are all known now stop waiting for a holder: one whose pair is indexed under
    /// another id is a duplicate nobody can ask about, and is forgotten.
    /// </summary>
    private void Settle(List<int> stacks)
    {
        foreach (int id in stacks)
        {
            if (!_unheld.Contains(id)) continue;
            var pair = Get(id);
            if (IsPending(pair.Kernel) || IsPending(pair.User)) continue;
            _unheld.Remove(id);
            if (_stackIndex.TryGetValue(pair, out int indexed) && indexed != id) Forget(id);
        }
    }

    /// <summary>
    /// The id <paramref name="stack"/> is kept by its caller (a ticket, a listener): it stays valid for the whole pass.
    /// Every id from <see cref="Intern"/> is held already; the collector holds those it hands out as it hands them.
    /// </summary>
    public void Hold(StackId stack)
    {
        if (_unheld.Count > 0) _unheld.Remove(stack.Value);
    }

    /// <summary>
    /// The collector holds <paramref name="part"/> no more (its key was deleted, nothing waits with it): when it resolved
    /// to a duplicate, no stack refers to it either, and its slot takes the next pending part.
    /// </summary>
    public void Release(int part)
    {
        if (part <= 0 || part >= _partCount) return;
        ref var p = ref _parts[part];
        if (p.Pending || p.Alias == 0) return; // pending, or content that stacks and other parts share
        p = default;
        _freeParts.Push(part);
    }

    /// <summary>The part a pending part resolved to when it duplicated a stored one; the part itself otherwise.</summary>
    public int Resolved(int part) => CanonicalPart(part);

    /// <summary>
    /// Stacks made with a pending part that turned out a duplicate now name the stored part: each keeps its id (callers
    /// hold it); the pair leaves the index, and an id for the same frames already there stays the one new lookups find.
    /// </summary>
    private void RewriteStacks(List<int> stacks)
    {
        foreach (int id in stacks)
        {
            var old = Get(id);
            var now = (CanonicalPart(old.Kernel), CanonicalPart(old.User));
            if (now == old) continue;
            if (_stackIndex.TryGetValue(old, out int indexed) && indexed == id) _stackIndex.Remove(old);
            Set(id, now);
            if (!_stackIndex.ContainsKey(now)) _stackIndex[now] = id; // a part still pending keeps it listed for its own rewrite
        }
    }

    private List<int> StacksOfPending(int part)
    {
        if (!_stacksOfPending.TryGetValue(part, out var list)) _stacksOfPending[part] = list = _spareLists.TryPop(out var spare) ? spare : new List<int>(2);
        return list;
    }

    /// <summary>The stack made of these two parts (<see cref="StackId.None"/> when both are empty), held for the whole pass.</summary>
    public StackId Intern(int kernelPart, int userPart)
    {
        var stack = InternUnheld(kernelPart, userPart);
        Hold(stack);
        return stack;
    }

    /// <summary>
    /// <see cref="Intern"/>, but an id made with a pending part is forgotten when its parts turn out a duplicate unless
    /// <see cref="Hold"/> is called for it first (the collector: when a ticket takes it or a listener keeps it).
    /// </summary>
    internal StackId InternUnheld(int kernelPart, int userPart)
    {
        if (kernelPart == 0 && userPart == 0) return StackId.None;
        kernelPart = CanonicalPart(kernelPart);
        userPart = CanonicalPart(userPart);
        if (_stackIndex.TryGetValue((kernelPart, userPart), out int id)) return new StackId(id);
        if ((_stackCount & (StackChunkSize - 1)) == 0) AddChunk();
        id = _stackCount++;
        Set(id, (kernelPart, userPart));
        _knownInChunk[^1]++;
        _stackIndex[(kernelPart, userPart)] = id;
        bool kernelPending = IsPending(kernelPart), userPending = userPart != kernelPart && IsPending(userPart);
        if (kernelPending) StacksOfPending(kernelPart).Add(id);
        if (userPending) StacksOfPending(userPart).Add(id);
        if (kernelPending || userPending) _unheld.Add(id);
        return new StackId(id);
    }

    public (int KernelPart, int UserPart) PartsOf(StackId stack) =>
        stack.Value > 0 && stack.Value < _stackCount ? Get(stack.Value) : (0, 0);

    private (int Kernel, int User) Get(int id) =>
        _stacks[id >> StackChunkShift] is { } chunk ? chunk[id & (StackChunkSize - 1)] : _sparse.GetValueOrDefault(id);

    private void Set(int id, (int Kernel, int User) pair)
    {
        if (_stacks[id >> StackChunkShift] is { } chunk) chunk[id & (StackChunkSize - 1)] = pair;
        else _sparse[id] = pair;
    }

    private void AddChunk()
    {
        _stacks.Add(new (int, int)[StackChunkSize]);
        _knownInChunk.Add(0);
        // The chunk before is complete now: its ids forgotten while it filled may leave it nearly empty.
        MaybeDropChunk(_stacks.Count - 2);
    }

    /// <summary>An id nobody holds or can find: it reads as no stack from now on (nobody asks).</summary>
    private void Forget(int id)
    {
        ForgottenStacks++;
        int chunk = id >> StackChunkShift;
        if (_stacks[chunk] is { } entries)
        {
            entries[id & (StackChunkSize - 1)] = default;
            _knownInChunk[chunk]--;
            MaybeDropChunk(chunk);
        }
        else _sparse.Remove(id);
    }

    /// <summary>A complete chunk down to a few known ids moves them to the side table and lets its array go.</summary>
    private void MaybeDropChunk(int chunk)
    {
        if (chunk < 0 || chunk >= _stacks.Count - 1 || _knownInChunk[chunk] > SparseChunkLimit || _stacks[chunk] is not { } entries) return;
        for (int i = 0; i < entries.Length; i++)
            if (entries[i] != default) _sparse[(chunk << StackChunkShift) + i] = entries[i];
        _stacks[chunk] = null;
    }

    public StackFrames GetFrames(StackId stack)
    {
        var (kernel, user) = PartsOf(stack);
        bool resolved = !IsPending(kernel) && !IsPending(user);
        return new StackFrames(PartFrames(kernel), PartFrames(user), resolved);
    }

    /// <summary>
    /// The same stack with pending parts replaced by the content parts they resolved to, so equal frames give
    /// equal ids (use it when aggregating by stack after the trace's stack keys are all defined).
    /// </summary>
    public StackId Canonical(StackId stack)
    {
        var (kernel, user) = PartsOf(stack);
        if (kernel == 0 && user == 0) return stack;
        // A stack rewritten when its pending part turned out a duplicate keeps its own id; the index knows the first.
        return Intern(CanonicalPart(kernel), CanonicalPart(user));
    }

    public ReadOnlySpan<ulong> PartFrames(int part)
    {
        if (part <= 0 || part >= _partCount) return default;
        part = CanonicalPart(part);
        ref var p = ref _parts[part];
        return p.Pending ? default : _frames.AsSpan(p.Offset, p.Count);
    }

    private int CanonicalPart(int part) => part > 0 && part < _partCount && _parts[part].Alias != 0 ? _parts[part].Alias : part;

    private int InternExisting(ReadOnlySpan<ulong> frames, out int hash)
    {
        hash = Hash(frames);
        for (int i = _partBuckets[hash & (_partBuckets.Length - 1)]; i != 0; i = _parts[i].Next)
        {
            ref var p = ref _parts[i];
            if (p.Hash == hash && !p.Pending && p.Alias == 0 && _frames.AsSpan(p.Offset, p.Count).SequenceEqual(frames)) return i;
        }
        return 0;
    }

    private int NewPart()
    {
        if (_freeParts.TryPop(out int free)) return free;
        if (_partCount == _parts.Length) GrowParts();
        return _partCount++;
    }

    private void Store(int id, ReadOnlySpan<ulong> frames, int hash)
    {
        if (_frameCount + frames.Length > _frames.Length)
            Array.Resize(ref _frames, Math.Max(_frames.Length * 2, _frameCount + frames.Length));
        frames.CopyTo(_frames.AsSpan(_frameCount));
        ref var p = ref _parts[id];
        p.Offset = _frameCount;
        p.Count = frames.Length;
        p.Hash = hash;
        _frameCount += frames.Length;
        int bucket = hash & (_partBuckets.Length - 1);
        p.Next = _partBuckets[bucket];
        _partBuckets[bucket] = id;
    }

    private void GrowParts()
    {
        Array.Resize(ref _parts, _parts.Length * 2);
        _partBuckets = new int[_parts.Length];
        for (int i = 1; i < _partCount; i++)
        {
            ref var p = ref _parts[i];
            if (p.Count == 0) continue;
            int bucket = p.Hash & (_partBuckets.Length - 1);
            p.Next = _partBuckets[bucket];
            _partBuckets[bucket] = i;
        }
    }

    private static int Hash(ReadOnlySpan<ulong> frames)
    {
        var hash = new HashCode();
        foreach (var frame in frames) hash.Add(frame);
        return hash.ToHashCode();
    }
}
