using HiddenCost.Synthetic.Etl;
using HiddenCost.Synthetic.Events;

namespace HiddenCost.Synthetic.Model;

public sealed partial class TraceBuilder
{
    /// <summary>Maps ntdll.dll, kernel32.dll and KernelBase.dll (System32, or SysWOW64 for a 32-bit process on a 64-bit kernel).</summary>
    public SystemDlls AddSystemDlls(SyntheticProcess process)
    {
        var folder = process.PointerSize < Settings.PointerSize ? "SysWOW64" : "System32";
        var root = @"\Device\HarddiskVolume3\Windows\" + folder + @"\";
        return new SystemDlls(
            AddImage(process, root + "ntdll.dll", UserFunctions.NtdllSize, pdbName: "ntdll.pdb"),
            AddImage(process, root + "kernel32.dll", UserFunctions.Kernel32Size, pdbName: "kernel32.pdb"),
            AddImage(process, root + "KernelBase.dll", UserFunctions.KernelBaseSize, pdbName: "kernelbase.pdb"));
    }

    /// <summary>
    /// Start rundown on CPU 0, 2 ticks apart: the sample interval, then per process (System and Idle first) its
    /// Process DCStart, Thread DCStarts and Image DCStarts, each image followed by KernelTraceControl ImageID and
    /// DbgID_RSDS at the same time (as merged traces have them), then scenario rundown events. Processes, threads
    /// and images that start later get Start/Load events at their time.
    /// </summary>
    private void EmitStartRundown()
    {
        var t = Etl.StartQpc;
        EventContext Next(SyntheticThread? logger = null)
        {
            t += 2;
            if (t >= ActivityStart) throw new InvalidOperationException("start rundown does not fit before the activity start; raise RundownMs");
            return OnCpu(0, t, logger ?? ControllerThread);
        }

        // Volume mappings let analyses show C:\ paths for \Device\HarddiskVolume3\ (merged traces carry them).
        _records.Add(KernelTraceControlEvents.VolumeMapping(Next(IdleThread), @"\SystemRoot\", @"C:\Windows\"));
        _records.Add(KernelTraceControlEvents.VolumeMapping(Next(IdleThread), @"\Device\HarddiskVolume3\", @"C:\"));

        // In memory mode the circular buffers have overwritten everything logged at the start: the interval and
        // the scenario's start rundown (CLR method DCStart, registry KCB RundownBegin) are known only from the end.
        if (SampleIntervalTicks > 0 && !Settings.RundownAtEndOnly)
            _records.Add(PerfInfoEvents.ProfileInterval(Next(), true, (uint)(SampleIntervalTicks * 10_000_000 / Etl.PerfFrequency)));

        if (!Settings.RundownAtEndOnly) EmitSystemRundown(Next, ProcessEvents.DCStartType, ThreadEvents.DCStartType, ImageEvents.DCStartType);
        if (!Settings.RundownAtEndOnly)
            foreach (var factory in _startRundown) _records.Add(factory(Next()));

        foreach (var process in _processes.Where(p => p.StartQpc is not null))
        {
            var c = OnCpu(0, process.StartQpc!.Value, process.Threads.FirstOrDefault());
            _records.Add(ProcessEvents.Lifetime(c, ProcessEvents.StartType, ToProcessInfo(process)));
        }
        foreach (var thread in _processes.SelectMany(p => p.Threads).Where(th => th.StartQpc is not null))
            _records.Add(ThreadEvents.Lifetime(OnCpu(0, thread.StartQpc!.Value), ThreadEvents.StartType, ToThreadInfo(thread)));
        foreach (var image in _processes.SelectMany(p => p.Images).Where(i => i.LoadQpc is not null))
            AddImageEvents(OnCpu(0, image.LoadQpc!.Value, image.Process.Threads.FirstOrDefault()), ImageEvents.LoadType, image);
        foreach (var process in _processes.Where(p => p.EndQpc is not null))
        {
            foreach (var thread in process.Threads)
                _records.Add(ThreadEvents.Lifetime(OnCpu(0, thread.EndQpc!.Value), ThreadEvents.EndType, ToThreadInfo(thread)));
            _records.Add(ProcessEvents.Lifetime(OnCpu(0, process.EndQpc!.Value, process.Threads.FirstOrDefault()), ProcessEvents.EndType,
                ToProcessInfo(process) with { ExitStatus = process.ExitStatus }));
        }
    }

    /// <summary>End rundown on CPU 0 after every other event: scenario rundown, stack key definitions, the interval end.</summary>
    private void EmitEndRundown()
    {
        var t = _records.Count == 0 ? ActivityStart : _records.Max(r => r.Timestamp);
        t += 2 - (t & 1);
        EventContext Next()
        {
            t += 2;
            return OnCpu(0, t, ControllerThread);
        }

        if (Settings.RundownAtEndOnly)
            EmitSystemRundown(thread => Next(), ProcessEvents.DCEndType, ThreadEvents.DCEndType, ImageEvents.DCEndType);
        foreach (var factory in _endRundown) _records.Add(factory(Next()));
        foreach (var (key, frames) in _keyDefinitions)
            _records.Add(StackWalkEvents.KeyDefinition(Next(), true, key, frames));
        if (SampleIntervalTicks > 0)
            _records.Add(PerfInfoEvents.ProfileInterval(Next(), false, (uint)(SampleIntervalTicks * 10_000_000 / Etl.PerfFrequency)));
    }

    /// <summary>
    /// Per process (System and Idle first) its Process rundown event, Thread rundown events and Image rundown events
    /// for what existed before the trace: DCStart at the start, or DCEnd at the end for what is still alive then.
    /// </summary>
    private void EmitSystemRundown(Func<SyntheticThread?, EventContext> next, byte processType, byte threadType, byte imageType)
    {
        bool atEnd = processType == ProcessEvents.DCEndType;
        foreach (var process in _processes.OrderBy(p => p.Pid))
        {
            if (atEnd && process.EndQpc is not null) continue; // ended during the trace: its End event describes it
            if (process.StartQpc is null || atEnd)
                _records.Add(ProcessEvents.Lifetime(next(null), processType, ToProcessInfo(process)));
            if (process.Pid == 0)
            {
                // One idle thread per processor, all with id 0.
                for (var cpu = 0; cpu < Settings.Cpus; cpu++)
                    _records.Add(ThreadEvents.Lifetime(next(IdleThread), threadType, ToThreadInfo(IdleThread)));
            }
            foreach (var thread in process.Threads.Where(th => (atEnd ? th.EndQpc is null : th.StartQpc is null) && th.Tid != 0))
                _records.Add(ThreadEvents.Lifetime(next(thread), threadType, ToThreadInfo(thread)));
            var images = process.Pid == 0 ? _kernelModules : process.Images.Where(i => i.LoadQpc is null || atEnd).ToList();
            foreach (var image in images)
                AddImageEvents(next(null), imageType, image);
        }
    }

    private void AddImageEvents(EventContext c, byte type, SyntheticImage image)
    {
        _records.Add(ImageEvents.Image(c, type, image.ToImageInfo()));
        var pid = (uint)image.Process.Pid;
        _records.Add(KernelTraceControlEvents.ImageId(c, image.Base, image.Size, pid, image.TimeDateStamp, image.FileName));
        _records.Add(KernelTraceControlEvents.DbgIdRsds(c, image.Base, pid, image.Pdb.Signature, image.Pdb.Age, image.Pdb.PdbName));
    }

    private ProcessInfo ToProcessInfo(SyntheticProcess p) => new((uint)p.Pid, (uint)p.ParentPid, p.ImageName, p.CommandLine)
    {
        UniqueProcessKey = (Settings.PointerSize == 8 ? 0xFFFF_C50A_0000_0000UL : 0x8600_0000UL) + (ulong)p.Pid * 0x80,
        DirectoryTableBase = 0x1_0000_0000UL + (ulong)p.Pid * 0x1000 & (Settings.PointerSize == 8 ? ulong.MaxValue : 0xFFFF_F000UL),
        SessionId = p.Pid is 0 or 4 ? uint.MaxValue : p.SessionId,
        UserSid = p.UserSid,
    };

    private ThreadInfo ToThreadInfo(SyntheticThread t)
    {
        var kernelStack = (Settings.PointerSize == 8 ? 0xFFFF_F80C_0000_0000UL : 0x9000_0000UL) + (ulong)t.Tid * 0x1_0000;
        var userStack = t.Process.PointerSize == 8 ? 0x0000_00A0_0000_0000UL + (ulong)t.Tid * 0x10_0000 : 0x0100_0000UL + (ulong)t.Tid * 0x1000;
        return new ThreadInfo((uint)t.Process.Pid, (uint)t.Tid)
        {
            StackBase = kernelStack + 0x6000,
            StackLimit = kernelStack,
            UserStackBase = t.Process.Pid == 4 ? 0 : userStack + 0x10_0000,
            UserStackLimit = t.Process.Pid == 4 ? 0 : userStack + 0xF_0000,
            Affinity = Settings.Cpus >= 64 ? ulong.MaxValue : (1UL << Settings.Cpus) - 1,
            Win32StartAddress = t.Win32StartAddress,
            TebBase = t.Process.Pid == 4 ? 0 : (t.Process.PointerSize == 8 ? 0x0000_00B0_0000_0000UL : 0x7FF0_0000UL) + (ulong)t.Tid * 0x2000,
            BasePriority = t.Priority,
            ThreadName = t.Name,
        };
    }
}
