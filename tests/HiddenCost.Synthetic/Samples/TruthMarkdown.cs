using System.Globalization;
using System.Text;
using HiddenCost.Synthetic.Scenarios;

namespace HiddenCost.Synthetic.Samples;

/// <summary>Ground truth as Markdown tables, for samples/SYNTHETIC.md.</summary>
public static class TruthMarkdown
{
    public static string Syscall(SyscallHookStormTruth t)
    {
        var sb = new StringBuilder();
        sb.AppendLine("Syscall Hook Overhead (sample interval " + N(t.SampleIntervalMs, 0) + " ms; syscall names unresolved: no symbols):").AppendLine();
        Table(sb, ["Culprit Module", "Vendor", "Product", "Category", "Process", "PID", "Syscall", "Syscalls", "Syscalls per Second",
                "Total Syscall Time (ms)", "Mean Syscall Time (µs)", "Samples in Syscalls", "Hook CPU (ms)", "Hook Overhead per Syscall (µs)", "Inflation (×)", "First (ns)", "Last (ns)"],
            t.Rows.Select(r => new[] { r.CulpritModule, r.Vendor, r.Product, r.Category, r.Process, I(r.Pid), $"{r.Syscall} = {r.UnresolvedSyscall}", I(r.Syscalls),
                N(r.SyscallsPerSecond, 1), N(r.TotalSyscallTimeMs, 3), N(r.MeanSyscallTimeUs, 3), I(r.SamplesInSyscalls), N(r.HookCpuMs, 0),
                N(r.HookOverheadPerSyscallUs, 3), N(r.Inflation, 3), I(r.FirstNs), I(r.LastNs) }));
        sb.AppendLine();
        if (t.Gap is { } g)
            sb.AppendLine($"Profiling gap: last sample before it at {I(g.StartNs)} ns, first after it at {I(g.EndNs)} ns ({N(g.DurationMs, 3)} ms); " +
                          $"{I(g.EventsDuringGap)} events strictly between them, of which {I(g.SyscallEventsDuringGap)} SysClEnter/SysClExit and {I(g.ContextSwitchesDuringGap)} CSwitch.");
        sb.AppendLine($"Not in the table: {t.ProcessWithoutSyscalls} (PID {t.ProcessWithoutSyscallsPid}, busy without syscalls) and {t.CleanModule} (a catalogue driver loaded but never in a stack). " +
                      $"Totals: {I(t.TotalSyscalls)} syscalls, {I(t.TotalSamples)} CPU samples.");
        return sb.ToString();
    }

    public static string Spin(SpinContentionTruth t)
    {
        var sb = new StringBuilder();
        sb.AppendLine($"Spin-Wait Cost per Lock ({t.Runtime}; spin = samples × {N(t.SampleIntervalMs, 0)} ms; a Lock ID of — means keyed by call site):").AppendLine();
        Table(sb, ["Process", "PID", "Lock ID", "Object", "Call Site", "Contentions", "Threads", "Wait (ms)", "Wasted Spin CPU (ms)", "Successful Spin CPU (ms)",
                "Spin CPU (ms)", "Spin Share (%)", "Longest Spin (ms)", "First (ns)", "Last (ns)"],
            t.Locks.Select(l => new[] { l.Process, I(l.Pid), l.LockId is { } id ? $"0x{id:X}" : "—", l.ObjectId is { } o ? $"0x{o:X}" : "—", l.CallSite,
                I(l.Contentions), I(l.Threads), N(l.WaitMs, 4), N(l.WastedSpinMs, 0), N(l.SuccessfulSpinMs, 0), N(l.SpinMs, 0), N(l.SpinSharePercent, 2),
                N(l.LongestSpinMs, 0), I(l.FirstNs), I(l.LastNs) }));
        sb.AppendLine().AppendLine("Spin-Wait by Process:").AppendLine();
        Table(sb, ["Process", "PID", "Threads", "Lock Spin CPU (ms)", "Yields", "Yields per Second", "Delay Switches", "OpenMP Runtime CPU (ms)", "Hint expected"],
            t.Processes.Select(p => new[] { p.Process, I(p.Pid), I(p.Threads), N(p.LockSpinCpuMs, 0), I(p.Yields), N(p.YieldsPerSecond, 1), I(p.DelaySwitches),
                N(p.OpenMpRuntimeCpuMs, 0), p.HintExpected ? $"yes ({N(p.OpenMpShare * 100, 1)} % of its CPU in libiomp5md.dll)" : "no" }));
        return sb.ToString();
    }

    public static string Notify(NotifyBufferStormTruth t)
    {
        var sb = new StringBuilder();
        sb.AppendLine($"Directory Notify Buffers (directory {t.Directory}, i.e. {t.DosDirectory}; file key 0x{t.DirectoryFileKey:X}, named only by the FileRundown at the end):").AppendLine();
        Table(sb, ["Process", "PID", "Buffer (bytes)", "Arms", "Completions", "Overflows", "Bytes Returned", "Mean Bytes per Completion", "Utilisation (%)",
                "Bytes Zeroed", "Victim Processes", "Recommendation expected", "First Arm (ns)", "Last Completion (ns)"],
            t.Watchers.Select(w => new[] { w.Process, I(w.Pid), I(w.BufferBytes), I(w.Arms), I(w.Completions), I(w.Overflows), I(w.BytesReturned),
                N(w.MeanBytesPerCompletion, 3), N(w.UtilisationPercent, 4), I(w.BytesZeroed), string.Join(", ", w.VictimProcesses),
                w.RecommendationExpected ? "yes" : "no", I(w.FirstArmNs), I(w.LastCompletionNs) }));
        sb.AppendLine().AppendLine("Directory Notify Victims:").AppendLine();
        Table(sb, ["Process", "PID", "File Operations (changes)", "Creates", "Deletes", "Renames", "Writes", "Demand-Zero Faults", "Watchers", "Notify CPU (ms)", "All FileIo operations"],
            t.Victims.Select(v => new[] { v.Process, I(v.Pid), I(v.FileOperations), I(v.Creates), I(v.Deletes), I(v.Renames), I(v.Writes), I(v.DemandZeroFaults),
                I(v.Watchers), v.NotifyCpuMs is { } ms ? N(ms, 3) : "— (no symbols)", I(v.AllOperations) }));
        sb.AppendLine().AppendLine($"Not a victim: {t.ReadOnlyProcess} (PID {t.ReadOnlyPid}) only opens and reads files there.");
        return sb.ToString();
    }

    public static string EventLog(EventLogRenderTruth t)
    {
        var sb = new StringBuilder();
        sb.AppendLine($"Event Log Render Cost (EventLog service PID {t.EventLogServicePid}):").AppendLine();
        Table(sb, ["Process", "PID", "On Behalf Of", "On Behalf Of PID", "Log", "Renders", "Queries", "Service CPU (ms)", "CPU per Message (ms)", "Registry Ops",
                "Registry Ops per Message", "Evtx Read (bytes)", "Messages per Second", "WMI Query", "First (ns)", "Last (ns)"],
            t.Clients.Select(c => new[] { c.Process, I(c.Pid), c.OnBehalfOf ?? "", c.OnBehalfOfPid is { } p ? I(p) : "", c.Log, I(c.Renders), I(c.Queries),
                N(c.ServiceCpuMs, 4), N(c.CpuPerMessageMs, 4), I(c.RegistryOps), N(c.RegistryOpsPerMessage, 2), I(c.EvtxReadBytes), N(c.MessagesPerSecond, 1),
                c.WmiQuery ?? "", I(c.FirstNs), I(c.LastNs) }));
        sb.AppendLine().AppendLine($"Not counted: {I(t.OtherServiceRegistryOps)} registry reads by another svchost (PID {t.OtherServicePid}, -s Schedule); " +
                                   $"a WMI query from PID {t.NonEventLogWmiClientPid} (monitor.exe) for Win32_Process.");
        return sb.ToString();
    }

    public static string Combined(CombinedSampleTruth t) =>
        "#### Syscall hook storm\n\n" + Syscall(t.Syscall) + "\n#### Spin contention\n\n" + Spin(t.Spin) + AcrossTheSamplingPause +
        "\n#### Notify buffer storm\n\n" + Notify(t.Notify) + "\n#### Event log render\n\n" + EventLog(t.EventLog);

    /// <summary>Where HiddenCost's per-lock table and this ground truth part (SpinWaitScenarioTests pins it).</summary>
    private const string AcrossTheSamplingPause =
        "\nWhat HiddenCost shows differs from the per-lock rows above in one place. This ground truth lets a spin run that ends " +
        "before the 40 ms sampling pause take the call site of a contention after it, and so gives successful spins at " +
        "`Contoso.Inventory.AuditLog.Append` to the StockCache.TryGet lock. HiddenCost takes a contention's call site only " +
        "from a spin run that ends within two sample intervals of it: those spins show in a row of their own " +
        "(`Contoso.Inventory.AuditLog.Append`, 0 contentions), and StockCache.TryGet's successful spin, spin CPU and spin " +
        "share are that much lower. Contentions, wait, wasted spin and the total spin CPU match.\n";

    private static string I(long v) => v.ToString("N0", CultureInfo.InvariantCulture);

    private static string N(double v, int decimals) => v.ToString("N" + decimals, CultureInfo.InvariantCulture);

    private static void Table(StringBuilder sb, string[] header, IEnumerable<string[]> rows)
    {
        sb.Append("| ").Append(string.Join(" | ", header)).AppendLine(" |");
        sb.Append('|').Append(string.Concat(header.Select(_ => "---|"))).AppendLine();
        foreach (var r in rows) sb.Append("| ").Append(string.Join(" | ", r.Select(c => c.Replace("|", "\\|")))).AppendLine(" |");
    }
}
