using HiddenCost.Analysis.Common;

namespace HiddenCost.Analysis.Tables.SpinWait;

/// <summary>How a lock is known: by the CLR's LockID, else by the locked object's address, else by its call site.</summary>
internal enum LockKeyKind : byte
{
    LockId,
    Object,
    CallSite,
    /// <summary>Spin and contentions nothing names: no LockID, no object, no stack.</summary>
    Unattributed,
}

/// <summary>A lock's identity within its process.</summary>
internal readonly record struct LockKey(ProcessRef Process, LockKeyKind Kind, ulong Id, string? Site)
{
    public static LockKey For(ProcessRef process, ulong? lockId, ulong? objectId, string? site) =>
        lockId is > 0 ? new(process, LockKeyKind.LockId, lockId.Value, null)
        : objectId is > 0 ? new(process, LockKeyKind.Object, objectId.Value, null)
        : site is not null ? new(process, LockKeyKind.CallSite, 0, site)
        : Unattributed(process);

    public static LockKey Unattributed(ProcessRef process) => new(process, LockKeyKind.Unattributed, 0, null);
}
