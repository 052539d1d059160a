using HiddenCost.Synthetic.Events;

namespace HiddenCost.Synthetic.Tests.Support;

/// <summary>
/// Facts decoded here, from the reader's view of a file and the documented layouts, independently of the
/// scenario code that wrote it: images, threads, processes, context switches, samples with resolved stacks.
/// </summary>
internal sealed class TraceFacts
{
    public sealed record Image(int Pid, ulong Base, ulong Size, string Path)
    {
        public string FileName => Path[(Path.LastIndexOf('\\') + 1)..];
        public bool Contains(ulong address) => address >= Base && address < Base + Size;
    }

    public sealed record Process(int Pid, string Name, string CommandLine);

    public sealed record Switch(int Cpu, long TimeNs, long Raw, int NewTid, int OldTid, byte WaitReason, byte State);

    public sealed record Sample(int Cpu, long TimeNs, long Raw, int Tid, int Pid, ulong Ip, ulong[] Frames);

    public TraceFacts(byte[] file)
    {
        (_, Events, Health) = ReadBack.Bytes(file);
        var plainStacks = new Dictionary<(long, int), ulong[]>();
        var keyRefs = new Dictionary<(long, int), List<ulong>>();
        var keyFrames = new Dictionary<ulong, ulong[]>();
        foreach (var e in Events)
        {
            if (e.Is(KernelGroup.Process, ProcessEvents.DCStartType) || e.Is(KernelGroup.Process, ProcessEvents.StartType))
            {
                var c = e.Cursor();
                c.Pointer();
                var pid = (int)c.U32();
                c.U32(); c.U32(); c.I32(); c.Pointer(); c.U32();
                if (c.U32() != 0)
                {
                    c.Skip(2 * c.PointerSizeValue - 4);
                    c.U8();
                    var n = c.U8();
                    c.Skip(6 + 4 * n);
                }
                var name = c.AString();
                Processes[pid] = new Process(pid, name, c.WString());
            }
            else if (e.Is(KernelGroup.Thread, ThreadEvents.DCStartType) || e.Is(KernelGroup.Thread, ThreadEvents.StartType))
            {
                var c = e.Cursor();
                var pid = (int)c.U32();
                ProcessOfThread[(int)c.U32()] = pid;
            }
            else if (e.Is(KernelGroup.Image, ImageEvents.DCStartType) || e.Is(KernelGroup.Process, ImageEvents.LoadType))
            {
                var c = e.Cursor();
                var b = c.Pointer();
                var size = c.Pointer();
                var pid = (int)c.U32();
                c.Skip(12);
                c.Pointer();
                c.Skip(16);
                Images.Add(new Image(pid, b, size, c.WString()));
            }
            else if (e.Is(KernelGroup.Thread, ThreadEvents.CSwitchType))
            {
                var c = e.Cursor();
                var newTid = (int)c.U32();
                var oldTid = (int)c.U32();
                c.Skip(4);
                var reason = c.U8();
                c.U8();
                Switches.Add(new Switch(e.Cpu, e.TimeNs, e.RawTimestamp, newTid, oldTid, reason, c.U8()));
            }
            else if (e.Is(KernelGroup.StackWalk, StackWalkEvents.StackType))
            {
                var c = e.Cursor();
                var ts = c.I64();
                c.U32();
                var tid = (int)c.U32();
                var frames = new List<ulong>();
                while (c.Remaining > 0) frames.Add(c.Pointer());
                plainStacks[(ts, tid)] = [.. frames];
            }
            else if (e.Is(KernelGroup.StackWalk, StackWalkEvents.StackKeyKernelType) || e.Is(KernelGroup.StackWalk, StackWalkEvents.StackKeyUserType))
            {
                var c = e.Cursor();
                var ts = c.I64();
                c.U32();
                var tid = (int)c.U32();
                if (!keyRefs.TryGetValue((ts, tid), out var keys)) keyRefs[(ts, tid)] = keys = [];
                keys.Add(c.Pointer());
            }
            else if (e.Is(KernelGroup.StackWalk, StackWalkEvents.KeyRundownType))
            {
                var c = e.Cursor();
                var key = c.Pointer();
                var frames = new List<ulong>();
                while (c.Remaining > 0) frames.Add(c.Pointer());
                keyFrames[key] = [.. frames];
            }
        }

        foreach (var e in Events.Where(e => e.Is(KernelGroup.PerfInfo, PerfInfoEvents.SampledProfileType)))
        {
            var c = e.Cursor();
            var ip = c.Pointer();
            var tid = (int)c.U32();
            ulong[] frames = plainStacks.TryGetValue((e.RawTimestamp, tid), out var plain) ? plain
                : keyRefs.TryGetValue((e.RawTimestamp, tid), out var keys) ? keys.SelectMany(k => keyFrames[k]).ToArray()
                : [];
            Samples.Add(new Sample(e.Cpu, e.TimeNs, e.RawTimestamp, tid, ProcessOfThread.GetValueOrDefault(tid, tid == 0 ? 0 : -1), ip, frames));
        }
        UnresolvedStackKeys = keyRefs.Values.SelectMany(k => k).Count(k => !keyFrames.ContainsKey(k));
    }

    public List<ReadEvent> Events { get; }
    public HiddenCost.Etl.Reading.TraceHealth Health { get; }
    public Dictionary<int, Process> Processes { get; } = [];
    public Dictionary<int, int> ProcessOfThread { get; } = [];
    public List<Image> Images { get; } = [];
    public List<Switch> Switches { get; } = [];
    public List<Sample> Samples { get; } = [];
    public int UnresolvedStackKeys { get; }

    public Image ImageNamed(string fileName) => Images.Single(i => i.FileName.Equals(fileName, StringComparison.OrdinalIgnoreCase));

    public int PidOf(string processName) => Processes.Values.Single(p => p.Name == processName).Pid;

    /// <summary>Sample interval from the PerfInfo CollectionStart event (100 ns units).</summary>
    public double SampleIntervalMs
    {
        get
        {
            var e = Events.Single(e => e.Is(KernelGroup.PerfInfo, PerfInfoEvents.CollectionStartType));
            var c = e.Cursor();
            c.U32();
            return c.U32() / 10_000.0;
        }
    }

    /// <summary>Intervals during which each thread ran, from the context switches: (cpu, start ns, end ns).</summary>
    public Dictionary<int, List<(int Cpu, long Start, long End)>> RunningIntervals()
    {
        var result = new Dictionary<int, List<(int, long, long)>>();
        foreach (var cpu in Switches.GroupBy(s => s.Cpu))
        {
            Switch? previous = null;
            foreach (var s in cpu)
            {
                if (previous is not null && previous.NewTid != 0)
                {
                    if (!result.TryGetValue(previous.NewTid, out var list)) result[previous.NewTid] = list = [];
                    list.Add((cpu.Key, previous.TimeNs, s.TimeNs));
                }
                previous = s;
            }
        }
        return result;
    }
}
