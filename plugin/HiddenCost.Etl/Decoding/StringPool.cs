using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text;

namespace HiddenCost.Etl.Decoding;

/// <summary>
/// Interns strings read from payloads: a name seen before comes back as the same instance without allocating,
/// so decoders on hot paths (image paths, file names, registry keys) allocate only for new text. Not
/// thread-safe: one pool per pass. Past <see cref="MaxEntries"/> new text is returned uninterned, so a hostile
/// trace full of unique strings cannot grow the pool without bound.
/// Lookups hash in four 8-byte lanes with a per-pool random seed (the runtime's string hash costs several times
/// more, and every payload string of a pass goes through here); a bucket chain longer than
/// <see cref="MaxChain"/> — which only crafted collisions produce — returns new text uninterned rather than
/// growing the chain, so lookups stay bounded whatever the trace holds.
/// </summary>
public sealed class StringPool
{
    public const int MaxEntries = 1 << 20;

    /// <summary>Entries a lookup walks in one bucket at most.</summary>
    public const int MaxChain = 64;

    private readonly ulong _seed = (ulong)Random.Shared.NextInt64() | 1;

    private int[] _buckets = new int[1024];
    private Entry[] _entries = new Entry[1024];
    private int _count;

    private struct Entry
    {
        public int Hash;
        public int Next; // 1-based index of the next entry in the bucket, 0 = end
        public string Value;
    }

    public int Count => _count;

    public string Intern(ReadOnlySpan<char> text)
    {
        if (text.IsEmpty) return "";
        int hash = Hash(text);
        int walked = 0;
        for (int i = _buckets[hash & (_buckets.Length - 1)]; i != 0; i = _entries[i - 1].Next)
        {
            ref var entry = ref _entries[i - 1];
            if (entry.Hash == hash && text.SequenceEqual(entry.Value)) return entry.Value;
            walked++;
        }
        var value = new string(text);
        if (_count >= MaxEntries || walked >= MaxChain) return value;
        if (_count == _entries.Length) Grow();
        int bucket = hash & (_buckets.Length - 1);
        _entries[_count] = new Entry { Hash = hash, Next = _buckets[bucket], Value = value };
        _buckets[bucket] = ++_count;
        return value;
    }

    /// <summary>Interns an 8-bit string (ANSI/UTF-8 bytes; ASCII is the common case and needs no allocation to look up).</summary>
    public string InternUtf8(ReadOnlySpan<byte> bytes)
    {
        if (bytes.IsEmpty) return "";
        if (bytes.Length <= 512)
        {
            Span<char> chars = stackalloc char[bytes.Length];
            int n = Encoding.UTF8.GetChars(bytes, chars);
            return Intern(chars[..n]);
        }
        return Intern(Encoding.UTF8.GetString(bytes));
    }

    private int Hash(ReadOnlySpan<char> text)
    {
        var bytes = MemoryMarshal.AsBytes(text);
        ref byte start = ref MemoryMarshal.GetReference(bytes);
        int length = bytes.Length;
        ulong h = _seed ^ ((ulong)length * 0x9E3779B97F4A7C15);
        int i = 0;
        if (length >= 32)
        {
            // Four independent lanes: each step's multiply waits only on its own lane, so long names (paths,
            // method signatures) hash at several bytes per cycle instead of one multiply latency per 8 bytes.
            ulong a = h, b = h ^ 0xC2B2AE3D27D4EB4F, c = h + 0x165667B19E3779F9, d = h - 0x27D4EB2F165667C5;
            for (; i + 32 <= length; i += 32)
            {
                a = Mix(a, Unsafe.ReadUnaligned<ulong>(ref Unsafe.Add(ref start, i)));
                b = Mix(b, Unsafe.ReadUnaligned<ulong>(ref Unsafe.Add(ref start, i + 8)));
                c = Mix(c, Unsafe.ReadUnaligned<ulong>(ref Unsafe.Add(ref start, i + 16)));
                d = Mix(d, Unsafe.ReadUnaligned<ulong>(ref Unsafe.Add(ref start, i + 24)));
            }
            h = a ^ BitOperations.RotateLeft(b, 17) ^ BitOperations.RotateLeft(c, 31) ^ BitOperations.RotateLeft(d, 47);
        }
        for (; i + 8 <= length; i += 8) h = Mix(h, Unsafe.ReadUnaligned<ulong>(ref Unsafe.Add(ref start, i)));
        ulong last = 0;
        for (int shift = 0; i < length; i++, shift += 8) last |= (ulong)Unsafe.Add(ref start, i) << shift;
        h = (h ^ last) * 0xC4CEB9FE1A85EC53;
        h ^= h >> 32;
        h *= 0xFF51AFD7ED558CCD;
        return (int)(h ^ (h >> 29));
    }

    private static ulong Mix(ulong h, ulong value) => BitOperations.RotateLeft((h ^ value) * 0xFF51AFD7ED558CCD, 29);

    private void Grow()
    {
        Array.Resize(ref _entries, _entries.Length * 2);
        _buckets = new int[_entries.Length];
        for (int i = 0; i < _count; i++)
        {
            int bucket = _entries[i].Hash & (_buckets.Length - 1);
            _entries[i].Next = _buckets[bucket];
            _buckets[bucket] = i + 1;
        }
    }
}

/// <summary>Payload string reads that go through an optional <see cref="StringPool"/>.</summary>
public static class PayloadStrings
{
    /// <summary>The NUL-terminated UTF-16 string at <paramref name="offset"/>; moves <paramref name="offset"/> past it.</summary>
    public static string Utf16(ReadOnlySpan<byte> p, ref int offset, StringPool? pool)
    {
        var chars = Utf16Span(p, ref offset);
        if (chars.IsEmpty) return "";
        return pool is null ? new string(chars) : pool.Intern(chars);
    }

    /// <summary>The NUL-terminated UTF-16 text at <paramref name="offset"/> without allocating; moves past it.</summary>
    public static ReadOnlySpan<char> Utf16Span(ReadOnlySpan<byte> p, scoped ref int offset)
    {
        if (offset < 0 || offset >= p.Length) return default;
        var rest = p[offset..];
        var chars = MemoryMarshal.Cast<byte, char>(rest[..(rest.Length & ~1)]);
        int end = chars.IndexOf('\0');
        int length = end < 0 ? chars.Length : end;
        offset += (length + (end < 0 ? 0 : 1)) * 2;
        if (end < 0) offset += rest.Length & 1;
        return chars[..length];
    }

    /// <summary>The NUL-terminated 8-bit string at <paramref name="offset"/> (UTF-8); moves past it.</summary>
    public static string Ansi(ReadOnlySpan<byte> p, ref int offset, StringPool? pool)
    {
        if (offset < 0 || offset >= p.Length) return "";
        var rest = p[offset..];
        int end = rest.IndexOf((byte)0);
        int length = end < 0 ? rest.Length : end;
        offset += length + (end < 0 ? 0 : 1);
        if (length == 0) return "";
        return pool is null ? Encoding.UTF8.GetString(rest[..length]) : pool.InternUtf8(rest[..length]);
    }
}
