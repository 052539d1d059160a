using System.Runtime.InteropServices;

namespace HiddenCost.Analysis.Tables.SpinWait;

/// <summary>
/// An append-only list of fixed-size structs in chunks of 2^shift items, of which at most
/// <paramref name="residentChunks"/> stay in memory: when one more is needed, the oldest is written to
/// <paramref name="file"/> and its array takes the new items, so appending allocates nothing once the budget is full.
/// The chunks written are always the oldest ones (a prefix); when the file fails, chunks simply stay in memory.
/// Items are read back in order through a <see cref="Reader"/>.
/// </summary>
internal sealed class SpillableChunks<T>(int shift, int residentChunks, SpillFile file) where T : unmanaged
{
    private readonly int _shift = shift;
    private readonly int _mask = (1 << shift) - 1;
    private readonly SpillFile _file = file;
    private readonly List<long> _spilledAt = new();   // file offsets of chunks 0 .. _spilledAt.Count − 1
    private readonly List<T[]> _resident = new();     // chunks _spilledAt.Count onwards
    private long _count;

    public long Count => _count;

    /// <summary>Chunks written to the file.</summary>
    public int SpilledChunks => _spilledAt.Count;

    /// <summary>Chunks held in memory.</summary>
    public int ResidentChunks => _resident.Count;

    public void Append(in T item)
    {
        int offset = (int)(_count & _mask);
        if (offset == 0) _resident.Add(NextChunk());
        _resident[^1][offset] = item;
        _count++;
    }

    /// <summary>Whether item <paramref name="index"/> is in memory (and so can be changed through <see cref="ResidentAt"/>).</summary>
    public bool IsResident(long index) => (ulong)index < (ulong)_count && (index >> _shift) >= _spilledAt.Count;

    public ref T ResidentAt(long index) => ref _resident[(int)((index >> _shift) - _spilledAt.Count)][(int)(index & _mask)];

    public Reader OpenReader() => new(this);

    private T[] NextChunk()
    {
        if (_resident.Count >= residentChunks)
        {
            var oldest = _resident[0];
            long at = _file.TryAppend(MemoryMarshal.AsBytes(oldest.AsSpan()));
            if (at >= 0)
            {
                _spilledAt.Add(at);
                _resident.RemoveAt(0);
                return oldest;
            }
        }
        return new T[1 << _shift];
    }

    /// <summary>Reads items in increasing index order, loading each written chunk once into a buffer of its own.</summary>
    public sealed class Reader(SpillableChunks<T> chunks)
    {
        private long _chunk = -1;
        private T[] _current = Array.Empty<T>();
        private T[]? _buffer;

        public ref readonly T At(long index)
        {
            long chunk = index >> chunks._shift;
            if (chunk != _chunk) Load(chunk);
            return ref _current[(int)(index & chunks._mask)];
        }

        private void Load(long chunk)
        {
            var c = chunks;
            if (chunk < c._spilledAt.Count)
            {
                _buffer ??= new T[1 << c._shift];
                c._file.Read(c._spilledAt[(int)chunk], MemoryMarshal.AsBytes(_buffer.AsSpan()));
                _current = _buffer;
            }
            else _current = c._resident[(int)(chunk - c._spilledAt.Count)];
            _chunk = chunk;
        }
    }
}
