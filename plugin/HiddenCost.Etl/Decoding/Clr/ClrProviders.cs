using System.Runtime.CompilerServices;
using HiddenCost.Etl.Records;

namespace HiddenCost.Etl.Decoding.Clr;

/// <summary>The .NET runtime's providers and the event ids we decode. Ids overlap between the two providers.</summary>
public static class ClrProviders
{
    /// <summary>Microsoft-Windows-DotNETRuntime.</summary>
    public static readonly Guid Runtime = new("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4");

    /// <summary>Microsoft-Windows-DotNETRuntimeRundown.</summary>
    public static readonly Guid Rundown = new("a669021c-c450-4609-a035-5af59af4df18");

    // Runtime provider.
    public const ushort ContentionStartId = 81, ContentionStopId = 91, MethodLoadVerboseId = 143, MethodUnloadVerboseId = 144,
        ModuleLoadId = 152, ModuleUnloadId = 153;

    // Rundown provider.
    public const ushort MethodDCStartVerboseId = 143, MethodDCEndVerboseId = 144, ModuleDCStartId = 153, ModuleDCEndId = 154;

    // The id first: it rules out almost every event (kernel events have none) before the provider GUID is read.
    // Decoders ask these for every event they are offered, so they are inlined into them.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static bool IsRuntime(in EtwEvent e, ushort id) => e.EventId == id && e.Kind == RecordHeaderKind.EventHeader && e.ProviderId == Runtime;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static bool IsRundown(in EtwEvent e, ushort id) => e.EventId == id && e.Kind == RecordHeaderKind.EventHeader && e.ProviderId == Rundown;

    /// <summary>A manifest event of either provider (for events both providers number alike), and which.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static bool IsEither(in EtwEvent e, out bool rundown)
    {
        rundown = false;
        if (e.Kind != RecordHeaderKind.EventHeader) return false;
        var provider = e.ProviderId;
        rundown = provider == Rundown;
        return rundown || provider == Runtime;
    }
}
