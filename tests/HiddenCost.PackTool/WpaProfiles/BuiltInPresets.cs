using System.Xml.Linq;

namespace HiddenCost.PackTool.WpaProfiles;

/// <summary>
/// Presets for WPA's own tables. Column GUIDs are WPA's, read from public profiles (microsoft/MSO-Scripts
/// src/WPAP/CPU.wpaProfile, FileIO.wpaProfile, Registry.wpaProfile; google/UIforETW bin/ExportCPUUsageSampled.wpaProfile).
/// </summary>
public static class BuiltInPresets
{
    private static readonly XNamespace Ns = PresetWriter.Ns;

    private static XElement StackTagMode() => new(Ns + "StackOptionsParameter", new XAttribute("Mode", "StackTag"));
    private static XElement PlainStack() => new(Ns + "StackOptionsParameter");
    private static XElement ProcessOptions() => new(Ns + "ProcessOptionsParameter");
    private static XElement Timestamp() => new(Ns + "DateTimeTimestampOptionsParameter", new XAttribute("DateTimeEnabled", "false"));
    private static XElement InView(string timestampColumn) => new(Ns + "DurationInViewOptionsParameter",
        new XAttribute("TimeStampColumnGuid", timestampColumn), new XAttribute("TimeStampType", "Start"), new XAttribute("InViewEnabled", "false"));

    private static PresetColumn C(string guid, string name, Aggregation agg = Aggregation.None, int width = 110, bool visible = true,
        bool sortDescending = false, params XElement[] options) => new(Guid.Parse(guid), name, agg, width, visible, sortDescending, options);

    /// <summary>CPU Usage (Sampled) pivoted on process and stack tag: where the sampled CPU goes, by HiddenCost tag.</summary>
    public static PresetGraph CpuSampledByStackTag(Guid table) => new("CPU Usage (Sampled)", table, "HiddenCost: Samples by Process, Stack Tag",
        [
            C("9c1ceec3-ef4a-4865-b678-d774881187b9", "Process Name", width: 140),
            C("842af11e-661d-477e-b7b6-556ed8181177", "Stack", width: 260, options: StackTagMode()),
            C("842af11e-661d-477e-b7b6-556ed8181177", "Stack", width: 300, options: PlainStack()),
            C("05100ece-df05-40c7-aad6-ffff99b60491", "Thread ID", visible: false),
            C("0bbf4299-0176-445e-b1d9-991df475d631", "TimeStamp", Aggregation.Max, visible: false),
            C("55d56ebb-77af-4af5-a056-6122751ea093", "CPU", visible: false),
            C("01a82c2c-5048-4c9d-ac37-eaf6556f6af5", "Count", Aggregation.Sum, 80, sortDescending: true),
            C("e0c6cb9e-04c2-4bb5-ba5f-4ed765f4ecaa", "Weight", Aggregation.Sum, 100),
            C("f5ebf01b-f7cb-4afb-877d-c36edb2a62b6", "% Weight", Aggregation.Sum, 90),
        ], 3,
        [
            new(Guid.Parse("05100ece-df05-40c7-aad6-ffff99b60491"), "Thread ID", "EndThreadId"),
            new(Guid.Parse("0bbf4299-0176-445e-b1d9-991df475d631"), "TimeStamp", "EndTime"),
            new(Guid.Parse("e0c6cb9e-04c2-4bb5-ba5f-4ed765f4ecaa"), "Weight", "Duration"),
            new(Guid.Parse("55d56ebb-77af-4af5-a056-6122751ea093"), "CPU", "ResourceId"),
        ], "#FFFF0000");

    /// <summary>
    /// CPU Usage (Precise) by process and the wait reason of the switched-in thread (yields, Sleep(0), lock waits);
    /// grouped by the new thread's stack tags too when the profile records CSwitch stacks (<paramref name="stacks"/>),
    /// since without them that column holds one empty group.
    /// </summary>
    public static PresetGraph CpuPreciseByWaitReason(Guid table, bool stacks = true) => new("CPU Usage (Precise)", table, "HiddenCost: Context Switches by Process, Wait Reason",
        [
            C("f64abe19-837a-4e53-8087-4547026b82b2", "New Process Name", width: 140),
            C("fe7ccd45-6275-413e-a538-3587f0eb452b", "New Prev Wait Reason", width: 140),
            .. stacks ? [C("68482a06-b6a3-4eb9-922f-9fa43537148b", "New Thread Stack", width: 260, options: StackTagMode())] : Array.Empty<PresetColumn>(),
            C("a91e1d66-1316-4baa-b95d-e69aeeef891e", "Readying Process", Aggregation.UniqueCount, 120, visible: false, options: ProcessOptions()),
            C("74714606-d216-4cfa-a7d8-7ccb9c67de76", "Ready Thread Stack", width: 200, visible: false, options: StackTagMode()),
            C("71d9a1a9-f32c-4b0b-8f09-09b56cbbb843", "Last Switch-Out Time", Aggregation.Min, visible: false, options: Timestamp()),
            C("5417f63c-9b79-45aa-beb9-73e3c1959221", "Switch-In Time", Aggregation.Max, visible: false, options: Timestamp()),
            C("d227f58f-ec9b-4a52-8fe5-e082771c55c6", "Count", Aggregation.Count, 80),
            C("6d598aa8-2ec4-46cd-b71a-88a239dfacf7", "Waits", Aggregation.Sum, 100, options: InView("71d9a1a9-f32c-4b0b-8f09-09b56cbbb843")),
            C("906ea81e-ab68-4dfd-9b9f-3adafab60f83", "Ready", Aggregation.Sum, 100, options: InView("71d9a1a9-f32c-4b0b-8f09-09b56cbbb843")),
            C("e008ed7a-15b0-40ab-854b-b5f6392f298b", "CPU Usage (in view)", Aggregation.Sum, 110, sortDescending: true,
                options: InView("71d9a1a9-f32c-4b0b-8f09-09b56cbbb843")),
        ], stacks ? 3 : 2,
        [
            new(Guid.Parse("71d9a1a9-f32c-4b0b-8f09-09b56cbbb843"), "Last Switch-Out Time", "WaitStartTime"),
            new(Guid.Parse("5417f63c-9b79-45aa-beb9-73e3c1959221"), "Switch-In Time", "WaitEndTime"),
        ], "#FFFF8000");

    /// <summary>
    /// File I/O by process, operation and path (victims' creates and deletes, .evtx reads); grouped by stack tags
    /// too when the profile records file stacks (<paramref name="stacks"/>).
    /// </summary>
    public static PresetGraph FileIoByProcess(Guid table, bool stacks = true) => new("File I/O", table, "HiddenCost: File I/O by Process, Type, Path",
        [
            C("f7732c29-62d3-4b32-ba4e-ced7ebe6b8ea", "Process Name", width: 140),
            C("db4da22c-8331-4243-9094-44f05969de01", "Event Type", width: 100),
            C("0b043700-c82e-4d03-bc9c-ae7138093b47", "File Path", width: 360),
            .. stacks ? [C("ecf6e842-d5da-4d95-84c7-63ab3b6cf318", "Stack", width: 200, options: StackTagMode())] : Array.Empty<PresetColumn>(),
            C("13e15a02-094f-4326-b5bd-e6721bdd3e87", "Result", visible: false),
            C("26d231f4-e6e3-4ea0-b8f1-3c3cfacf067b", "Start", Aggregation.Min, visible: false, options: Timestamp()),
            C("e2c7e540-4aeb-47e0-99ba-dacf63ec19cf", "End", Aggregation.Max, visible: false, options: Timestamp()),
            C("1a6168db-c962-472b-9c4a-a04621f1dc03", "Count", Aggregation.Sum, 80, sortDescending: true),
            C("8b8d220b-a24d-4773-81cb-6c6caebb084f", "Size", Aggregation.Sum, 90),
            C("0f0fd63e-942e-441d-829b-3f921965cc9a", "Duration", Aggregation.Sum, 100, options: InView("e2c7e540-4aeb-47e0-99ba-dacf63ec19cf")),
        ], stacks ? 4 : 3,
        [
            new(Guid.Parse("26d231f4-e6e3-4ea0-b8f1-3c3cfacf067b"), "Start", "StartTime"),
            new(Guid.Parse("e2c7e540-4aeb-47e0-99ba-dacf63ec19cf"), "End", "EndTime"),
        ], "#FF008000");

    /// <summary>Registry by process, operation and key, with stack tags (the EventLog service's reads under rendering).</summary>
    public static PresetGraph RegistryByProcess(Guid table) => new("Registry", table, "HiddenCost: Registry by Process, Operation, Key",
        [
            C("1a9d76f5-008d-49c8-9fc6-59fa84800243", "Process Name", width: 140),
            C("da3b10c0-1765-41f3-a783-dc51125851d1", "Operation", width: 110),
            C("32515a40-448a-48b3-bff0-4cf4031e9f08", "Entire Key (Base+Remainder) Tree", width: 360),
            C("726bb914-96d6-4332-94a1-4491fb83fe1f", "Stack", width: 200, options: StackTagMode()),
            C("1051b1bb-35cc-413f-bdef-067a55aa2e9a", "Thread ID", visible: false),
            C("a50fdcd5-8158-4b3c-a147-ab58b9e7c539", "Operation Time", Aggregation.Min, visible: false, options: Timestamp()),
            C("a43842b0-7cf3-4d6f-b7a2-2d6f1e00133f", "Count", Aggregation.Sum, 80, sortDescending: true),
            C("a42d1c14-a560-4cc1-9d27-abca0702612e", "Elapsed Time", Aggregation.Sum, 110, options: InView("a50fdcd5-8158-4b3c-a147-ab58b9e7c539")),
        ], 4,
        [
            new(Guid.Parse("1051b1bb-35cc-413f-bdef-067a55aa2e9a"), "Thread ID", "EndThreadId"),
            new(Guid.Parse("a50fdcd5-8158-4b3c-a147-ab58b9e7c539"), "Operation Time", "StartTime"),
            new(Guid.Parse("a50fdcd5-8158-4b3c-a147-ab58b9e7c539"), "Operation Time", "EndTime"),
        ], "#FF0000FF");
}
