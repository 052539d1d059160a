using HiddenCost.Etl.Reading;

namespace HiddenCost.Etl.Decoding.Clr;

/// <summary>
/// ContentionStart (runtime 81). v0: no payload. v1: u8 ContentionFlags; u16 ClrInstanceID. v2 adds
/// ptr LockID; ptr AssociatedObjectID; u64 LockOwnerThreadID (pointers sized by the record, not fixed at 8).
/// .NET Framework raises it after spinning, when the thread starts to wait.
/// </summary>
public readonly record struct ClrContentionStart(byte Version, byte ContentionFlags, ushort ClrInstanceId, ulong LockId, ulong AssociatedObjectId, ulong LockOwnerThreadId)
{
    /// <summary>ContentionFlags 1: a native (runtime-internal) lock; 0: managed.</summary>
    public bool IsNative => ContentionFlags == 1;

    public static bool Matches(in EtwEvent e) => ClrProviders.IsRuntime(e, ClrProviders.ContentionStartId);

    public static bool TryDecode(in EtwEvent e, out ClrContentionStart start)
    {
        start = default;
        if (!Matches(e)) return false;
        var p = e.Payload;
        int ptr = e.PointerSize;
        if (p.Length < (e.Version >= 2 ? 3 + 2 * ptr + 8 : e.Version == 1 ? 3 : 0)) return false;
        start = new ClrContentionStart(e.Version, PayloadReader.U8(p, 0), PayloadReader.U16(p, 1),
            e.Version >= 2 ? PayloadReader.Pointer(p, 3, ptr) : 0,
            e.Version >= 2 ? PayloadReader.Pointer(p, 3 + ptr, ptr) : 0,
            e.Version >= 2 ? PayloadReader.U64(p, 3 + 2 * ptr) : 0);
        return true;
    }
}

/// <summary>
/// ContentionStop (runtime 91). v0: u8 ContentionFlags; u16 ClrInstanceID. v1 adds f64 DurationNs.
/// For v0 the duration is the time from the same thread's ContentionStart.
/// </summary>
public readonly record struct ClrContentionStop(byte Version, byte ContentionFlags, ushort ClrInstanceId, double? DurationNs)
{
    public static bool Matches(in EtwEvent e) => ClrProviders.IsRuntime(e, ClrProviders.ContentionStopId);

    public static bool TryDecode(in EtwEvent e, out ClrContentionStop stop)
    {
        stop = default;
        if (!Matches(e)) return false;
        var p = e.Payload;
        if (p.Length < 3) return false;
        double? duration = e.Version >= 1 && p.Length >= 11 ? BitConverter.Int64BitsToDouble(PayloadReader.I64(p, 3)) : null;
        stop = new ClrContentionStop(e.Version, PayloadReader.U8(p, 0), PayloadReader.U16(p, 1), duration);
        return true;
    }
}
