using System.Globalization;
using System.Text;
using HiddenCost.Synthetic.Model;

namespace HiddenCost.Synthetic.Samples;

/// <summary>Writes samples/SYNTHETIC.md from the generated samples, so the documented figures are always the files' own.</summary>
public static class SampleReadme
{
    public const string FileName = "SYNTHETIC.md";

    public const string RegenerateCommand = "dotnet run --project tests/HiddenCost.SampleGenerator -c Release -- samples";

    public static string Render(IReadOnlyList<GeneratedSample> samples)
    {
        var sb = new StringBuilder();
        sb.AppendLine("# Synthetic sample traces");
        sb.AppendLine();
        sb.AppendLine("**Every `.etl` file in this folder is synthetic.** None was recorded on Windows: `tests/HiddenCost.Synthetic`");
        sb.AppendLine("wrote them from a description of a machine, following the documented ETL layouts (WMI_BUFFER_HEADER, the");
        sb.AppendLine("TRACE_LOGFILE_HEADER, the six record header kinds, MS-XCA XPRESS compression; kernel payloads per ntwmi.h and");
        sb.AppendLine("Microsoft's MOF pages; CLR, RPC and WMI-Activity payloads per their manifests), with the header kinds and");
        sb.AppendLine("versions of the real traces in `../shared/etl-samples` wherever those hold the same event. No public trace holds");
        sb.AppendLine("the events HiddenCost's tables need, so these show every table working, and the ground truth below is what a");
        sb.AppendLine("correct table must show for each file (with one difference, explained where it is: the per-lock spin rows of");
        sb.AppendLine("`hiddencost-sample.etl` across its sampling pause). The processes, drivers and vendors in them are stand-ins for");
        sb.AppendLine("the real cases.");
        sb.AppendLine();
        sb.AppendLine("Regenerate them, byte for byte (a test compares the committed files with a fresh generation):");
        sb.AppendLine();
        sb.AppendLine("    " + RegenerateCommand);
        sb.AppendLine();
        sb.AppendLine("| File | Size (bytes) | Holds |");
        sb.AppendLine("|---|---|---|");
        foreach (var s in samples)
            sb.AppendLine($"| `{s.Definition.FileName}` | {s.Bytes.Length.ToString("N0", CultureInfo.InvariantCulture)} | {s.Definition.Holds} |");
        sb.AppendLine();
        sb.AppendLine("## Common to every sample");
        sb.AppendLine();
        var first = samples[0].Trace.Settings;
        sb.AppendLine($"- Windows {first.OsMajorVersion}.{first.OsMinorVersion} build {first.Build}, 64-bit, QPC clock at {first.PerfFrequency / 1_000_000} MHz, trace start " +
                      $"{first.StartTimeUtc:yyyy-MM-dd HH:mm:ss} UTC, session \"{first.LoggerName}\", 64 KiB buffers written per CPU and out of time order.");
        sb.AppendLine("- A start rundown (Process, Thread and Image DCStart, each image followed by KernelTraceControl ImageID and DbgID_RSDS),");
        sb.AppendLine("  CPU samples every 1 ms (PerfInfo CollectionStart/End give the interval) with a stack each, and context switches and");
        sb.AppendLine("  ready-thread events derived from which thread runs on which CPU: a thread runs on one CPU at a time and every");
        sb.AppendLine("  switch's old thread is the previous switch's new thread on that CPU. Kernel module rundown uses SYSTEM headers,");
        sb.AppendLine("  user-mode image and process rundown PERFINFO headers, as in the real samples.");
        sb.AppendLine("- No image has a PDB: DbgID_RSDS GUIDs start with the bytes `SYNTHETI`. Stacks resolve to modules (and to .NET methods");
        sb.AppendLine("  through the CLR method events), not to native function names. The synthetic stacks use these offsets in ntoskrnl.exe:");
        sb.AppendLine();
        sb.AppendLine("| Function | ntoskrnl.exe offset |");
        sb.AppendLine("|---|---|");
        foreach (var (name, rva) in KernelOffsets())
            sb.AppendLine($"| {name} | 0x{rva:X} |");
        sb.AppendLine();
        sb.AppendLine("- Times in the ground truth are nanoseconds since the trace start (what the reader reports as `TimeNs`).");
        sb.AppendLine("- Every figure below is computed from the events as written (the samples the file holds, the calls it logs), by the");
        sb.AppendLine("  definitions documented on the ground-truth types in `tests/HiddenCost.Synthetic/Scenarios`.");
        foreach (var s in samples)
        {
            sb.AppendLine();
            sb.AppendLine($"## `{s.Definition.FileName}`: {s.Definition.Title}");
            sb.AppendLine();
            sb.AppendLine(s.Definition.Holds);
            sb.AppendLine();
            sb.AppendLine($"{s.Trace.Records.Count.ToString("N0", CultureInfo.InvariantCulture)} events after the header on " +
                          $"{s.Trace.Settings.NumberOfProcessors} CPUs, {s.Trace.TicksToMs(s.Trace.ActivityEnd - s.Trace.Settings.StartQpc).ToString("N1", CultureInfo.InvariantCulture)} ms of activity; " +
                          $"{(s.Trace.Settings.Compress ? "compressed" : "uncompressed")} buffers.");
            sb.AppendLine();
            sb.Append(s.TruthMarkdown);
        }
        return sb.ToString().Replace("\r\n", "\n");
    }

    private static IEnumerable<(string Name, ulong Rva)> KernelOffsets() =>
    [
        ("KiSystemServiceCopyEnd", KernelFunctions.KiSystemServiceCopyEndRva),
        ("KiSystemServiceExit", KernelFunctions.KiSystemServiceExitRva),
        ("PerfInfoLogSysCallEntry", KernelFunctions.PerfInfoLogSysCallEntryRva),
        ("EtwpLogKernelEvent", KernelFunctions.EtwpLogKernelEventRva),
        ("NtDelayExecution", KernelFunctions.NtDelayExecutionRva),
        ("NtYieldExecution", KernelFunctions.NtYieldExecutionRva),
        ("KeDelayExecutionThread", KernelFunctions.KeDelayExecutionThreadRva),
        ("KiSwapThread", KernelFunctions.KiSwapThreadRva),
        ("PpmIdle", KernelFunctions.PpmIdleRva),
        ("KiIdleLoop", KernelFunctions.KiIdleLoopRva),
        ("FsRtlNotifyFilterReportChangeLiteEx", KernelFunctions.FsRtlNotifyFilterReportChangeLiteExRva),
        ("memset", KernelFunctions.MemsetRva),
        ("NtQueryValueKey", KernelFunctions.NtQueryValueKeyRva),
    ];
}
