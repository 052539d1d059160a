using HiddenCost.Etl.Reading;

namespace HiddenCost.Etl.Decoding.Kernel;

/// <summary>StackWalk event types (group 0x18).</summary>
public static class StackWalkTypes
{
    public const byte Stack = 32, KeyCreate = 34, KeyDelete = 35, KeyRundown = 36, StackKeyKernel = 37, StackKeyUser = 38;

    public static bool IsStackWalk(in EtwEvent e) => e.IsKernel && e.Group == KernelGroups.StackWalk;
}

/// <summary>
/// StackWalk Stack (32): u64 EventTimeStamp; u32 StackProcess; u32 StackThread; ptr Frames[]. The stack of the
/// event with the same raw timestamp on the same thread, leaf frame first. Frames stay in the payload: read
/// them with <see cref="GetFrame"/> or <see cref="CopyFrames"/>.
/// </summary>
public readonly record struct StackWalkStack(long EventTimestamp, int ProcessId, int ThreadId, int FrameCount, int PointerSize)
{
    private const int FramesOffset = 16;

    public static bool Matches(in EtwEvent e) => e.Is(KernelGroups.StackWalk, StackWalkTypes.Stack);

    public static bool TryDecode(in EtwEvent e, out StackWalkStack stack)
    {
        stack = default;
        if (!Matches(e) || e.Payload.Length < FramesOffset) return false;
        var p = e.Payload;
        stack = new StackWalkStack(PayloadReader.I64(p, 0), PayloadReader.I32(p, 8), PayloadReader.I32(p, 12),
            (p.Length - FramesOffset) / e.PointerSize, e.PointerSize);
        return true;
    }

    public ulong GetFrame(ReadOnlySpan<byte> payload, int index) =>
        (uint)index < (uint)FrameCount ? PayloadReader.Pointer(payload, FramesOffset + index * PointerSize, PointerSize) : 0;

    /// <summary>Copies up to <paramref name="destination"/>.Length frames; returns how many.</summary>
    public int CopyFrames(ReadOnlySpan<byte> payload, Span<ulong> destination) =>
        StackFrameReader.Copy(payload, FramesOffset, FrameCount, PointerSize, destination);
}

/// <summary>
/// StackWalk KeyCreate (34), KeyDelete (35), KeyRundown (36): ptr StackKey; ptr Frames[]. Defines the frames of
/// a cached stack key. A key is referenced before its definition arrives (KeyDelete when the kernel evicts it,
/// KeyRundown at the end of the trace), and is reused for other stacks after KeyDelete.
/// </summary>
public readonly record struct StackKeyDefinition(byte Opcode, ulong Key, int FrameCount, int PointerSize)
{
    public static bool Matches(in EtwEvent e) =>
        e.IsKernel && e.Group == KernelGroups.StackWalk && e.Opcode is StackWalkTypes.KeyCreate or StackWalkTypes.KeyDelete or StackWalkTypes.KeyRundown;

    public bool EndsKey => Opcode is StackWalkTypes.KeyDelete or StackWalkTypes.KeyRundown;

    public static bool TryDecode(in EtwEvent e, out StackKeyDefinition definition)
    {
        definition = default;
        if (!Matches(e)) return false;
        int ptr = e.PointerSize;
        if (e.Payload.Length < ptr) return false;
        definition = new StackKeyDefinition(e.Opcode, PayloadReader.Pointer(e.Payload, 0, ptr), (e.Payload.Length - ptr) / ptr, ptr);
        return true;
    }

    public ulong GetFrame(ReadOnlySpan<byte> payload, int index) =>
        (uint)index < (uint)FrameCount ? PayloadReader.Pointer(payload, PointerSize + index * PointerSize, PointerSize) : 0;

    public int CopyFrames(ReadOnlySpan<byte> payload, Span<ulong> destination) =>
        StackFrameReader.Copy(payload, PointerSize, FrameCount, PointerSize, destination);
}

/// <summary>
/// StackWalk StackKeyKernel (37) / StackKeyUser (38): u64 EventTimeStamp; u32 StackProcess; u32 StackThread;
/// ptr StackKey. The kernel or user part of the stack of the event with that timestamp on that thread, by key.
/// </summary>
public readonly record struct StackKeyReference(bool IsUser, long EventTimestamp, int ProcessId, int ThreadId, ulong Key)
{
    public static bool Matches(in EtwEvent e) =>
        e.IsKernel && e.Group == KernelGroups.StackWalk && e.Opcode is StackWalkTypes.StackKeyKernel or StackWalkTypes.StackKeyUser;

    /// <summary>True when <see cref="TryDecode"/> decodes the event (its kind, and every field present), without reading it.</summary>
    public static bool Fits(in EtwEvent e) => Matches(e) && e.Payload.Length >= 16 + e.PointerSize;

    public static bool TryDecode(in EtwEvent e, out StackKeyReference reference)
    {
        reference = default;
        if (!Fits(e)) return false;
        var p = e.Payload;
        reference = new StackKeyReference(e.Opcode == StackWalkTypes.StackKeyUser, PayloadReader.I64(p, 0),
            PayloadReader.I32(p, 8), PayloadReader.I32(p, 12), PayloadReader.Pointer(p, 16, e.PointerSize));
        return true;
    }
}

internal static class StackFrameReader
{
    public static int Copy(ReadOnlySpan<byte> payload, int offset, int count, int pointerSize, Span<ulong> destination)
    {
        int n = Math.Min(count, destination.Length);
        for (int i = 0; i < n; i++) destination[i] = PayloadReader.Pointer(payload, offset + i * pointerSize, pointerSize);
        return n;
    }
}
