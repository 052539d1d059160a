using HiddenCost.Etl.Decoding;
using HiddenCost.Etl.Decoding.Clr;
using HiddenCost.Etl.Decoding.Kernel;
using HiddenCost.Etl.Decoding.KernelTraceControl;
using HiddenCost.Etl.Reading;
using HiddenCost.Etl.Stacks;

namespace HiddenCost.Etl.State;

/// <summary>
/// The system as the ordered event stream describes it over time: processes, threads and images with their
/// lifetimes (ids are reused: a process is (pid, start time)), kernel modules (process 0), PDB identities from
/// KernelTraceControl, JIT method ranges from CLR events, thread names, and NT→DOS volume mappings.
/// Feed every event to <see cref="Observe"/> in stream order. Lookups take a time, so frames can be resolved
/// during the pass or at its end (rundown-only knowledge — DCEnd images and methods — covers the lifetime of the process
/// instance alive at the rundown, the whole trace for one that began before it).
/// </summary>
public sealed class TraceState
{
    private readonly StringPool _strings;
    private readonly Dictionary<int, List<ProcessInfo>> _processesById = new();
    private readonly Dictionary<int, List<ThreadInfo>> _threadsById = new();
    private readonly Dictionary<int, RangeTable<ImageInfo>> _images = new();
    private readonly Dictionary<int, RangeTable<ClrMethodInfo>> _methods = new();
    // The images and methods added to each process id since its last exit: those its current instance may still hold,
    // ended with it (a process id's table keeps every earlier instance's ranges too, so walking it at each exit costs).
    private readonly Dictionary<int, List<ClrMethodInfo>> _methodsSinceStart = new();
    private readonly Dictionary<int, List<ImageInfo>> _imagesSinceStart = new();
    private readonly Dictionary<(int Pid, ulong Base), PdbIdentity> _pendingPdb = new();
    private readonly Dictionary<(int Pid, ulong Base), string> _pendingOriginalName = new();
    private readonly List<ProcessInfo> _processes = new();
    private readonly List<ThreadInfo> _threads = new();
    private readonly List<ImageInfo> _allImages = new();
    private readonly List<(string Nt, string Dos)> _volumes = new();
    private readonly StateParts _parts;
    private int _methodCount;

    /// <param name="parts">
    /// What to learn; images and methods need processes too (a rundown's ranges begin with their process instance), so
    /// asking for either learns processes as well. Lookups of a part not learned find nothing.
    /// </param>
    public TraceState(StringPool? strings = null, StateParts parts = StateParts.All)
    {
        _strings = strings ?? new StringPool();
        _parts = parts == StateParts.None ? parts : parts | StateParts.Processes;
    }

    /// <summary>What this state learns from the events.</summary>
    public StateParts Parts => _parts;

    /// <summary>Every process instance seen, in order of appearance.</summary>
    public IReadOnlyList<ProcessInfo> Processes => _processes;

    /// <summary>Every thread instance seen, in order of appearance.</summary>
    public IReadOnlyList<ThreadInfo> Threads => _threads;

    /// <summary>Every image instance seen (kernel modules have process id 0), in order of appearance.</summary>
    public IReadOnlyList<ImageInfo> Images => _allImages;

    /// <summary>JIT/precompiled method ranges known.</summary>
    public int MethodCount => _methodCount;

    /// <summary>Pointer size of the kernel that logged the trace (from kernel image events; 8 until known).</summary>
    public int KernelPointerSize { get; private set; } = 8;

    public IReadOnlyList<(string NtPath, string DosPath)> VolumeMappings => _volumes;

    public void Observe(in EtwEvent e)
    {
        if (e.IsKernel)
        {
            if ((_parts & StateParts.Processes) == 0) return;
            switch (e.Group)
            {
                case KernelGroups.Process: ObserveProcess(e); break;
                case KernelGroups.Thread: ObserveThread(e); break;
                case KernelGroups.Image when (_parts & StateParts.Images) != 0: ObserveImage(e); break;
            }
            return;
        }
        if (e.Kind is Records.RecordHeaderKind.Classic or Records.RecordHeaderKind.Instance)
        {
            if ((_parts & StateParts.Images) == 0) return;
            if (DbgIdRsds.TryDecode(e, out var rsds, _strings)) AttachPdb(rsds);
            else if (ImageIdEvent.TryDecode(e, out var id, _strings)) AttachImageId(id);
            else if (VolumeMapping.TryDecode(e, out var volume) && !_volumes.Contains((volume.NtPath, volume.DosPath))) _volumes.Add((volume.NtPath, volume.DosPath));
            return;
        }
        if ((_parts & StateParts.ClrMethods) != 0 && ClrMethod.TryDecodeRange(e, out var kind, out ulong methodId, out ulong start, out uint size)) ObserveMethod(e, kind, methodId, start, size);
    }

    /// <summary>The instance of process <paramref name="processId"/> alive at <paramref name="timeNs"/> (else the latest one before it).</summary>
    public ProcessInfo? GetProcess(int processId, long timeNs) =>
        _processesById.TryGetValue(processId, out var list) ? Pick<ProcessInfo, ProcessLifetime>(list, timeNs) : null;

    /// <summary>The instance of thread <paramref name="threadId"/> alive at <paramref name="timeNs"/> (else the latest one before it).</summary>
    public ThreadInfo? GetThread(int threadId, long timeNs) =>
        _threadsById.TryGetValue(threadId, out var list) ? Pick<ThreadInfo, ThreadLifetime>(list, timeNs) : null;

    /// <summary>
    /// The image covering <paramref name="address"/> in the process at that time; kernel addresses look in the kernel
    /// modules. Only images of the process instance alive then count: a process that reused an exited one's id never
    /// had that one's images.
    /// </summary>
    public ImageInfo? FindImage(int processId, ulong address, long timeNs) => FindImage(processId, address, timeNs, InstanceWindow(processId, timeNs));

    private ImageInfo? FindImage(int processId, ulong address, long timeNs, (long From, long To) window)
    {
        bool kernel = KernelAddress.IsKernel(address, KernelPointerSize);
        if (!kernel && _images.TryGetValue(processId, out var own) && own.Find(address, timeNs, window.From, window.To) is { } image) return image;
        if (_images.TryGetValue(0, out var system) && system.Find(address, timeNs) is { } module) return module;
        return kernel && processId != 0 && _images.TryGetValue(processId, out own) ? own.Find(address, timeNs, window.From, window.To) : null;
    }

    /// <summary>The .NET method whose code covers <paramref name="address"/> in the process instance alive at that time.</summary>
    public ClrMethodInfo? FindMethod(int processId, ulong address, long timeNs) => FindMethod(processId, address, timeNs, InstanceWindow(processId, timeNs));

    private ClrMethodInfo? FindMethod(int processId, ulong address, long timeNs, (long From, long To) window) =>
        _methods.TryGetValue(processId, out var table) ? table.Find(address, timeNs, window.From, window.To) : null;

    /// <summary>
    /// The lifetime of the instance of <paramref name="processId"/> alive at <paramref name="timeNs"/>, which bounds the
    /// ranges a lookup may fall back on; the whole trace when none is known alive then (or for the kernel, process 0).
    /// </summary>
    private (long From, long To) InstanceWindow(int processId, long timeNs) =>
        processId != 0 && GetProcess(processId, timeNs) is { } process && process.IsAlive(timeNs)
            ? (process.StartTimeNs, process.EndTimeNs)
            : (Lifetime.BeforeTrace, Lifetime.AfterTrace);

    /// <summary>What the trace says about a code address: a .NET method, else <c>module+0xRVA</c>, else the bare address.</summary>
    public ResolvedFrame ResolveFrame(int processId, ulong address, long timeNs)
    {
        var window = InstanceWindow(processId, timeNs); // once for both lookups: a frame is resolved per sample
        var method = KernelAddress.IsKernel(address, KernelPointerSize) ? null : FindMethod(processId, address, timeNs, window);
        return new ResolvedFrame(address, FindImage(processId, address, timeNs, window), method);
    }

    /// <summary>The images a process had mapped (any time), ordered by base address.</summary>
    public IReadOnlyList<ImageInfo> ImagesOf(int processId) =>
        _images.TryGetValue(processId, out var table) ? table.Items : Array.Empty<ImageInfo>();

    /// <summary>The methods known in a process, ordered by start address.</summary>
    public IReadOnlyList<ClrMethodInfo> MethodsOf(int processId) =>
        _methods.TryGetValue(processId, out var table) ? table.Items : Array.Empty<ClrMethodInfo>();

    /// <summary>An NT path (<c>\Device\HarddiskVolume2\…</c>) as a DOS path (<c>C:\…</c>) when a volume mapping covers it.</summary>
    public string ToDosPath(string ntPath)
    {
        foreach (var (nt, dos) in _volumes)
        {
            var prefix = nt.TrimEnd('\\');
            // Mappings to nothing (\??\ → "") or of the bare root say nothing about a path.
            if (prefix.Length == 0 || dos.Length == 0) continue;
            if (ntPath.Length > prefix.Length && ntPath.StartsWith(prefix, StringComparison.OrdinalIgnoreCase) && ntPath[prefix.Length] == '\\')
                return dos.TrimEnd('\\') + ntPath[prefix.Length..];
        }
        return ntPath;
    }

    private void ObserveProcess(in EtwEvent e)
    {
        if (!ProcessEvent.TryDecode(e, out var p, _strings)) return;
        var list = ListFor(_processesById, p.ProcessId);
        var live = list.Count > 0 && list[^1].EndTimeNs == Lifetime.AfterTrace ? list[^1] : null;
        switch (p.Opcode)
        {
            case ProcessEvent.Start:
                if (live is not null)
                {
                    // The id was reused without an End we saw. The old instance's JIT methods end here (no runtime runs
                    // in the new one yet); its images are left: the new process's first images may map before its Start.
                    live.EndTimeNs = e.TimeNs;
                    CloseMethods(p.ProcessId, e.TimeNs);
                }
                AddProcess(list, new ProcessInfo(p.ProcessId, e.TimeNs, p.ParentId, p.SessionId, p.ImageFileName, p.CommandLine, p.UniqueProcessKey));
                break;
            case ProcessEvent.DCStart or ProcessEvent.DCEnd:
                // A rundown of another process object under a live id (its End and the new Start were lost) ends the
                // live one there; the kernel's process key tells them apart (0 where a layout has none).
                if (live is not null && live.UniqueProcessKey != p.UniqueProcessKey && live.UniqueProcessKey != 0 && p.UniqueProcessKey != 0)
                {
                    // When the new one began is not known, nor so whose the images and methods since then are: they end
                    // with the old one, and the new one's come again in its own rundown (images, and methods when the
                    // runtime's rundown is recorded), which follows.
                    live.EndTimeNs = e.TimeNs;
                    CloseAddressSpace(p.ProcessId, e.TimeNs);
                    live = null;
                }
                if (live is null) AddProcess(list, NewRundownProcess(p, list));
                break;
            case ProcessEvent.End:
                var ended = live ?? AddProcess(list, NewRundownProcess(p, list));
                ended.EndTimeNs = e.TimeNs;
                ended.ExitStatus = p.ExitStatus;
                CloseAddressSpace(p.ProcessId, e.TimeNs);
                break;
            case ProcessEvent.Defunct:
                // The end rundown names processes that have exited but are still referenced. One whose End this trace
                // holds is already ended; one that exited before the trace began was never alive in it.
                if (live is not null)
                {
                    live.EndTimeNs = e.TimeNs;
                    live.ExitStatus = p.ExitStatus;
                    CloseAddressSpace(p.ProcessId, e.TimeNs);
                }
                else if (list.Count == 0 || list[^1].UniqueProcessKey != p.UniqueProcessKey)
                {
                    var zombie = AddProcess(list, NewRundownProcess(p, list));
                    zombie.EndTimeNs = zombie.StartTimeNs;
                    zombie.ExitStatus = p.ExitStatus;
                }
                break;
        }
    }

    /// <summary>
    /// A process known from a rundown or an End alone: it started before the trace, or, when an earlier instance of
    /// its id ended in the trace, after that one ended (its Start event was lost), never over that one's lifetime.
    /// </summary>
    private static ProcessInfo NewRundownProcess(in ProcessEvent p, List<ProcessInfo> earlier) =>
        new(p.ProcessId, earlier.Count > 0 ? earlier[^1].EndTimeNs : Lifetime.BeforeTrace, p.ParentId, p.SessionId, p.ImageFileName, p.CommandLine,
            p.UniqueProcessKey);

    /// <summary>
    /// A process's address space goes with it: the runtime logs no method unloads at exit (and an image unload may be
    /// lost), so the methods and images still loaded end with the process, and a later process with the same id does
    /// not resolve frames through them.
    /// </summary>
    private void CloseAddressSpace(int processId, long timeNs)
    {
        CloseMethods(processId, timeNs);
        if (_imagesSinceStart.Remove(processId, out var images))
            foreach (var image in images)
                if (image.UnloadTimeNs == Lifetime.AfterTrace) image.UnloadTimeNs = Math.Max(timeNs, image.LoadTimeNs);
    }

    private void CloseMethods(int processId, long timeNs)
    {
        if (_methodsSinceStart.Remove(processId, out var methods))
            foreach (var method in methods)
                if (method.UnloadTimeNs == Lifetime.AfterTrace) method.UnloadTimeNs = Math.Max(timeNs, method.LoadTimeNs);
    }

    /// <summary>
    /// When a range known only from a rundown (or an unload) began: with its process instance, when the instance alive
    /// then is known (an earlier instance of the id never had it), else before the trace.
    /// </summary>
    private long RundownLoad(int processId, long timeNs) =>
        processId != 0 && GetProcess(processId, timeNs) is { } process && process.IsAlive(timeNs) ? process.StartTimeNs : Lifetime.BeforeTrace;

    private ProcessInfo AddProcess(List<ProcessInfo> list, ProcessInfo process)
    {
        list.Add(process);
        _processes.Add(process);
        return process;
    }

    private void ObserveThread(in EtwEvent e)
    {
        if (ThreadSetName.TryDecode(e, out var name, _strings))
        {
            // The live instance of the id, when it is in the named process; else a thread whose Start was lost (its id
            // reused): an ended instance or another process's keeps its own name.
            var named = ListFor(_threadsById, name.ThreadId);
            var current = named.Count > 0 && named[^1].EndTimeNs == Lifetime.AfterTrace ? named[^1] : null;
            if (current is not null && current.ProcessId == name.ProcessId)
            {
                current.Name = name.ThreadName;
                return;
            }
            if (current is not null) current.EndTimeNs = e.TimeNs;
            AddThread(named, new ThreadInfo(name.ThreadId, name.ProcessId, RundownStart(named), 0)).Name = name.ThreadName;
            return;
        }
        if (!ThreadEvent.TryDecode(e, out var t)) return;
        var list = ListFor(_threadsById, t.ThreadId);
        var live = list.Count > 0 && list[^1].EndTimeNs == Lifetime.AfterTrace ? list[^1] : null;
        switch (t.Opcode)
        {
            case ThreadEvent.Start:
                if (live is not null) live.EndTimeNs = e.TimeNs;
                AddThread(list, new ThreadInfo(t.ThreadId, t.ProcessId, e.TimeNs, t.Win32StartAddress));
                break;
            case ThreadEvent.DCStart or ThreadEvent.DCEnd:
                if (live is null || live.ProcessId != t.ProcessId)
                {
                    if (live is not null) live.EndTimeNs = e.TimeNs;
                    AddThread(list, new ThreadInfo(t.ThreadId, t.ProcessId, RundownStart(list), t.Win32StartAddress));
                }
                break;
            case ThreadEvent.End:
                (live ?? AddThread(list, new ThreadInfo(t.ThreadId, t.ProcessId, RundownStart(list), t.Win32StartAddress))).EndTimeNs = e.TimeNs;
                break;
        }
    }

    /// <summary>
    /// Where a thread known from a rundown or an End alone starts: before the trace, or when the last instance of its
    /// id ended (its Start event was lost), never over that one's lifetime.
    /// </summary>
    private static long RundownStart(List<ThreadInfo> earlier) => earlier.Count > 0 ? earlier[^1].EndTimeNs : Lifetime.BeforeTrace;

    private ThreadInfo AddThread(List<ThreadInfo> list, ThreadInfo thread)
    {
        list.Add(thread);
        _threads.Add(thread);
        return thread;
    }

    private void ObserveImage(in EtwEvent e)
    {
        if (!ImageEvent.TryDecode(e, out var image, _strings)) return;
        KernelPointerSize = e.PointerSize;
        if (!_images.TryGetValue(image.ProcessId, out var table)) _images[image.ProcessId] = table = new RangeTable<ImageInfo>();
        var live = table.FindLiveAt(image.ImageBase);
        switch (image.Opcode)
        {
            case ImageEvent.Load:
                if (live is not null) live.UnloadTimeNs = e.TimeNs;
                AddImage(table, image, e.TimeNs);
                break;
            case ImageEvent.DCStart or ImageEvent.DCEnd:
                if (live is null) AddImage(table, image, RundownLoad(image.ProcessId, e.TimeNs));
                break;
            case ImageEvent.Unload:
                (live ?? AddImage(table, image, RundownLoad(image.ProcessId, e.TimeNs))).UnloadTimeNs = e.TimeNs;
                break;
        }
    }

    private ImageInfo AddImage(RangeTable<ImageInfo> table, in ImageEvent image, long loadTimeNs)
    {
        var info = new ImageInfo(image.ProcessId, image.ImageBase, image.ImageSize, image.FileName, image.ImageChecksum, image.TimeDateStamp, loadTimeNs);
        if (_pendingPdb.Remove((image.ProcessId, image.ImageBase), out var pdb)) info.Pdb = pdb;
        if (_pendingOriginalName.Remove((image.ProcessId, image.ImageBase), out var original)) info.OriginalFileName = original;
        table.Add(info);
        _allImages.Add(info);
        if (image.ProcessId != 0) ListFor(_imagesSinceStart, image.ProcessId).Add(info);
        return info;
    }

    private void AttachPdb(in DbgIdRsds rsds)
    {
        var identity = new PdbIdentity(rsds.PdbFileName, rsds.Signature, rsds.Age);
        if (ImageAt(rsds.ProcessId, rsds.ImageBase) is { } image) image.Pdb = identity;
        else if (_pendingPdb.Count < 1 << 16) _pendingPdb[(rsds.ProcessId, rsds.ImageBase)] = identity;
    }

    private void AttachImageId(in ImageIdEvent id)
    {
        if (ImageAt(id.ProcessId, id.ImageBase) is { } image) image.OriginalFileName = id.OriginalFileName;
        else if (_pendingOriginalName.Count < 1 << 16) _pendingOriginalName[(id.ProcessId, id.ImageBase)] = id.OriginalFileName;
    }

    // Only a live image: merged traces log DbgID_RSDS and ImageID just before their image's event, so when an image
    // was unloaded and another is about to load at its base, the identity is the coming one's (it waits as pending).
    private ImageInfo? ImageAt(int processId, ulong imageBase) =>
        _images.TryGetValue(processId, out var table) ? table.FindLiveAt(imageBase) : null;

    // The names are read (and interned) only for methods added: rundowns repeat methods the state already holds.
    private void ObserveMethod(in EtwEvent e, ClrMethodEventKind kind, ulong methodId, ulong start, uint size)
    {
        if (size == 0 || e.ProcessId < 0) return;
        if (!_methods.TryGetValue(e.ProcessId, out var table)) _methods[e.ProcessId] = table = new RangeTable<ClrMethodInfo>();
        var live = table.FindLiveAt(start);
        switch (kind)
        {
            case ClrMethodEventKind.Load:
                if (live is not null) live.UnloadTimeNs = e.TimeNs;
                AddMethod(table, e, start, size, methodId, e.TimeNs);
                break;
            case ClrMethodEventKind.DCStart or ClrMethodEventKind.DCEnd:
                if (live is null || live.MethodId != methodId) AddMethod(table, e, start, size, methodId, RundownLoad(e.ProcessId, e.TimeNs));
                break;
            case ClrMethodEventKind.Unload:
                if (live is not null) live.UnloadTimeNs = e.TimeNs;
                break;
        }
    }

    private void AddMethod(RangeTable<ClrMethodInfo> table, in EtwEvent e, ulong start, uint size, ulong methodId, long loadTimeNs)
    {
        if (!ClrMethodView.TryDecode(e, out var m)) return;
        string signature = m.MethodSignature.IsEmpty ? "" : _strings.Intern(m.MethodSignature);
        string fullName = FullName(m.MethodNamespace, m.MethodName);
        // A new instance of the method the last range at this address described (the id reused by another process
        // instance, as in a loop of runs) shares that one's names: each instance still has a record of its own.
        var method = table.FindAt(start) is { } earlier && earlier.IsSameMethod(e.ProcessId, start, size, fullName, signature, methodId, m.ModuleId)
            ? new ClrMethodInfo(earlier, loadTimeNs)
            : new ClrMethodInfo(e.ProcessId, start, size, fullName, signature, methodId, m.ModuleId, loadTimeNs);
        table.Add(method);
        ListFor(_methodsSinceStart, e.ProcessId).Add(method);
        _methodCount++;
    }

    /// <summary><c>Namespace.Type.Method</c>, interned without building the string when it is already known.</summary>
    private string FullName(ReadOnlySpan<char> ns, ReadOnlySpan<char> name)
    {
        if (ns.IsEmpty) return _strings.Intern(name);
        int length = ns.Length + 1 + name.Length;
        if (length > 512) return _strings.Intern(string.Concat(ns, ".", name));
        Span<char> text = stackalloc char[length];
        ns.CopyTo(text);
        text[ns.Length] = '.';
        name.CopyTo(text[(ns.Length + 1)..]);
        return _strings.Intern(text);
    }

    private static List<T> ListFor<T>(Dictionary<int, List<T>> byId, int id)
    {
        if (!byId.TryGetValue(id, out var list)) byId[id] = list = new List<T>(1);
        return list;
    }

    // A struct that reads the lifetime, rather than delegates: each lookup walks a pid's instances (hundreds where a
    // trace reuses an id again and again), and a delegate call per instance showed in profiles; a struct type argument
    // gets code of its own, with the reads inlined.
    private interface ILifetimeOf<in T>
    {
        long Start(T item);
        long End(T item);
    }

    private readonly struct ProcessLifetime : ILifetimeOf<ProcessInfo>
    {
        public long Start(ProcessInfo item) => item.StartTimeNs;
        public long End(ProcessInfo item) => item.EndTimeNs;
    }

    private readonly struct ThreadLifetime : ILifetimeOf<ThreadInfo>
    {
        public long Start(ThreadInfo item) => item.StartTimeNs;
        public long End(ThreadInfo item) => item.EndTimeNs;
    }

    private static T? Pick<T, TLifetime>(List<T> instances, long timeNs) where T : class where TLifetime : struct, ILifetimeOf<T>
    {
        var lifetime = default(TLifetime);
        T? before = null;
        for (int i = instances.Count - 1; i >= 0; i--)
        {
            var item = instances[i];
            long start = lifetime.Start(item);
            if (Lifetime.Contains(start, lifetime.End(item), timeNs)) return item;
            if (before is null && start <= timeNs) before = item;
        }
        return before ?? (instances.Count > 0 ? instances[0] : null);
    }
}
