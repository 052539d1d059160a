using HiddenCost.Analysis.Pipeline;
using HiddenCost.Analysis.Common;
using HiddenCost.Analysis.Model;

namespace HiddenCost.Analysis.Tables.EventLog;

/// <summary>
/// The Event Log Render Cost analysis without ETW types: fed decoded facts in time order (processes, image
/// loads, context switches, MS-EVEN6 RPC calls, registry and file events, WMI-Activity queries), it finds the
/// EventLog service, matches its server calls to client calls, charges each call the serving thread's CPU,
/// registry operations and .evtx reads, and builds the table with notes on whatever the trace lacks.
/// </summary>
public sealed class EventLogTracker
{
    /// <summary>RPC calls open on one thread beyond this depth mean stop events were lost; the oldest go.</summary>
    private const int MaxOpenRpcPerThread = 32;
    private const int MaxActiveWmiQueries = 256;
    private const int MaxRemoteClients = 1024;

    private readonly Dictionary<int, ProcessRef> _processes = new();
    private readonly Dictionary<int, ProcessRef> _services = new();
    private readonly List<ProcessRef> _everServices = new();
    private readonly Dictionary<int, string> _lateNames = new();
    private readonly RunningThreads _running;
    private readonly Dictionary<(int Thread, RpcSide Side), List<Even6Call?>> _rpcOpen = new();
    private readonly Dictionary<int, Even6Call> _serving = new();
    private readonly Even6CallMatcher _matcher = new();
    private readonly RenderCostTally _rows = new();
    private readonly Dictionary<(int Pid, int Thread), (ulong Log, LogSource Source)> _threadLog = new();
    private readonly Dictionary<int, (ulong Log, LogSource Source)> _processLog = new();
    private readonly Dictionary<ulong, string> _evtxNames = new();
    private readonly HashSet<ulong> _otherFiles = new();
    private readonly Dictionary<ulong, ulong> _objectOfKey = new();
    private readonly List<WmiQuery> _wmiQueries = new();
    private readonly Dictionary<string, ProcessRef> _remoteClients = new(StringComparer.OrdinalIgnoreCase);
    private readonly List<(ProcessRef Process, long Time)> _legacyClients = new();
    private readonly Action<Even6Call, Even6Call?> _finished;
    private readonly Func<int, long, ProcessRef>? _processAt;

    private long _rpcCallEvents, _even6Events, _foreignServerCalls, _registryEvents, _fileReads, _wmiEvents;
    private long _clientOnly, _serverOnly, _unfinished, _legacyClientCalls, _legacyServerCalls, _rendersWithGuessedLog, _rendersWithCarriedLog;

    /// <param name="processAt">
    /// The process instance with an id at a time, when the pipeline keeps them (so rows name processes as the other
    /// tables do); asked again when the table is built, when rundown at the end has named every process. Without it
    /// the tracker names processes from the process facts it is fed.
    /// </param>
    /// <param name="running">The pass's view of the thread on each processor (its own when null).</param>
    public EventLogTracker(Func<int, long, ProcessRef>? processAt = null, RunningThreads? running = null)
    {
        _finished = Finished;
        _processAt = processAt;
        _running = running ?? new RunningThreads();
    }

    /// <summary>A process start or start rundown (Process Start/DCStart) with its image file name and command line.</summary>
    public void ProcessStart(long t, int pid, string imageName, string commandLine)
    {
        var process = new ProcessRef(pid, t, NameOf(imageName));
        _processes[pid] = process;
        if (EventLogService.IsServiceCommandLine(imageName, commandLine)) AddService(process);
        else _services.Remove(pid);
    }

    /// <summary>
    /// A process end or end rundown (Process End/DCEnd). Traces whose rundown comes only at the end name their
    /// processes here, after their calls: the name and the service's identity are taken from it too.
    /// </summary>
    public void ProcessEnd(long t, int pid, string imageName, string commandLine)
    {
        if (!_processes.TryGetValue(pid, out var process) || process.Name == ProcessRef.Unknown.Name)
            _lateNames[pid] = NameOf(imageName);
        if (EventLogService.IsServiceCommandLine(imageName, commandLine)) AddService(ProcessOf(pid));
    }

    /// <summary>An image load, unload or rundown in <paramref name="pid"/>: <c>wevtsvc.dll</c> marks the EventLog service's svchost.</summary>
    public void Image(long t, int pid, string imagePath)
    {
        if (!EventLogService.IsServiceDll(imagePath) || _services.ContainsKey(pid)) return;
        var process = ProcessOf(pid);
        var name = process.Name == ProcessRef.Unknown.Name ? _lateNames.GetValueOrDefault(pid) : process.Name;
        if (name is null || EventLogService.IsHost(name)) AddService(process);
    }

    /// <summary>A context switch on <paramref name="cpu"/>: charges the thread leaving it for the server call it serves.</summary>
    public void ContextSwitch(long t, int cpu, int newThreadId, int oldThreadId)
    {
        if (_running.Switch(t, cpu, newThreadId, oldThreadId).OldThreadSince is { } s && oldThreadId != 0 && _serving.TryGetValue(oldThreadId, out var call))
            call.CpuNs += t - Math.Max(s, call.StartNs);
    }

    /// <summary>Microsoft-Windows-RPC event 5 (client) or 6 (server): a call starts on <paramref name="threadId"/>.</summary>
    public void RpcCallStart(long t, int cpu, int pid, int threadId, RpcSide side, Guid interfaceId, int opnum, int protocol)
    {
        _rpcCallEvents++;
        Even6Call? call = null;
        if (interfaceId == Even6.InterfaceId)
        {
            _even6Events++;
            if (Even6.KindOf(opnum) != Even6CallKind.Untracked) call = side == RpcSide.Server ? StartServer(t, cpu, pid, threadId, opnum, protocol) : StartClient(t, pid, threadId, opnum, protocol);
        }
        else if (interfaceId == Even6.LegacyInterfaceId)
        {
            if (side == RpcSide.Server) _legacyServerCalls++;
            else _legacyClientCalls++;
            if (side == RpcSide.Client && _legacyClients.Count < 8 && !_services.ContainsKey(pid))
            {
                var client = Identity(pid, t);
                if (!_legacyClients.Exists(c => c.Process == client)) _legacyClients.Add((client, t));
            }
        }
        if (!_rpcOpen.TryGetValue((threadId, side), out var open)) _rpcOpen[(threadId, side)] = open = new List<Even6Call?>(2);
        if (open.Count >= MaxOpenRpcPerThread) open.RemoveAt(0);
        open.Add(call);
    }

    /// <summary>Microsoft-Windows-RPC event 7 (client) or 8 (server): the innermost open call of that side on the thread stops.</summary>
    public void RpcCallStop(long t, int cpu, int pid, int threadId, RpcSide side)
    {
        _rpcCallEvents++;
        if (!_rpcOpen.TryGetValue((threadId, side), out var open) || open.Count == 0) return;
        var call = open[^1];
        open.RemoveAt(open.Count - 1);
        if (open.Count == 0) _rpcOpen.Remove((threadId, side)); // a trace may hold calls of millions of threads
        if (call is null) return;
        call.StopNs = t;
        if (side == RpcSide.Client)
        {
            _matcher.ClientStopped(call, _finished);
            return;
        }
        if (_running.RunningSince(cpu, threadId) is { } since) call.CpuNs += t - Math.Max(since, call.StartNs);
        if (_serving.TryGetValue(threadId, out var serving) && serving == call) _serving.Remove(threadId);
        _matcher.ServerStopped(call, _finished);
    }

    /// <summary>A kernel Registry event (group 9) of <paramref name="threadId"/>; <paramref name="opcode"/> is its event type.</summary>
    public void Registry(long t, int threadId, byte opcode)
    {
        _registryEvents++;
        if (RegistryOperations.IsOperation(opcode) && _serving.TryGetValue(threadId, out var call)) call.RegistryOps++;
    }

    /// <summary>A FileIo Read issued by <paramref name="threadId"/>.</summary>
    public void FileRead(long t, int threadId, ulong fileObject, ulong fileKey, long bytes)
    {
        _fileReads++;
        if (!_serving.TryGetValue(threadId, out var call)) return;
        ulong key = fileKey != 0 ? fileKey : fileObject;
        if (fileObject != 0 && fileObject != key) _objectOfKey[key] = fileObject;
        call.AddRead(key, bytes);
    }

    /// <summary>A FileIo name event (Name, FileCreate, FileRundown): a file key or object → its NT path.</summary>
    public void FileName(ulong key, string path)
    {
        if (key == 0) return;
        if (!EvtxLogName.IsEvtx(path))
        {
            NotALog(key);
            return;
        }
        _evtxNames[key] = path;
        _otherFiles.Remove(key);
    }

    /// <summary>A name event named the file <paramref name="key"/> with a path that is no .evtx file (callers need not make the string).</summary>
    public void NotALog(ulong key)
    {
        if (key == 0) return;
        // Only whether a key is a log matters; past a million other files the rest stay unknown (not counted as logs).
        if (_evtxNames.Remove(key) || _otherFiles.Count < 1_000_000) _otherFiles.Add(key);
    }

    /// <summary>WMI-Activity event 11: an operation starts for <paramref name="clientPid"/>; Win32_NTLogEvent queries are remembered.</summary>
    /// <param name="groupOperationId">Event 12 names the provider host serving the group.</param>
    /// <param name="operationId">Event 13 ends the operation.</param>
    /// <param name="remoteMachine">
    /// The client's computer when it is not this one (IsLocal false): its process id is that computer's, so the
    /// query is on behalf of the computer, never of a process here that happens to have the id.
    /// </param>
    public void WmiOperationStart(long t, string operation, int clientPid, uint groupOperationId = 0, uint operationId = 0, string? remoteMachine = null)
    {
        _wmiEvents++;
        if (!WmiEventLogQuery.IsEventLogQuery(operation)) return;
        if (_wmiQueries.Count >= MaxActiveWmiQueries) _wmiQueries.RemoveAt(0);
        var client = remoteMachine is null ? Identity(clientPid, t) : RemoteClient(remoteMachine);
        _wmiQueries.Add(new WmiQuery(t, client, WmiEventLogQuery.QueryText(operation), groupOperationId, operationId));
    }

    private bool IsRemote(ProcessRef process) =>
        !process.IsKnown && _remoteClients.TryGetValue(process.Name, out var remote) && ReferenceEquals(remote, process);

    /// <summary>One stand-in per remote computer, named <c>\\NAME</c>, with no process id (distinct by its start key).</summary>
    private ProcessRef RemoteClient(string machine)
    {
        var name = @"\\" + (machine.Length > 0 ? machine.TrimStart('\\') : "remote computer");
        if (_remoteClients.TryGetValue(name, out var known)) return known;
        if (_remoteClients.Count >= MaxRemoteClients) name = @"\\(other remote computers)";
        if (!_remoteClients.TryGetValue(name, out known))
        {
            known = new ProcessRef(-1, long.MinValue + 1 + _remoteClients.Count, name);
            _remoteClients[name] = known;
        }
        return known;
    }

    /// <summary>
    /// WMI-Activity event 12: the group operation <paramref name="groupOperationId"/> is served by the provider host
    /// <paramref name="hostId"/>; the remembered Win32_NTLogEvent queries of that group take it (it follows their event 11).
    /// </summary>
    public void WmiProviderInfo(uint groupOperationId, int hostId)
    {
        _wmiEvents++;
        if (groupOperationId == 0 || hostId <= 0) return;
        foreach (var q in _wmiQueries)
            if (q.GroupOperationId == groupOperationId) q.HostId = hostId;
    }

    /// <summary>WMI-Activity event 13: the operation <paramref name="operationId"/> ended.</summary>
    public void WmiOperationEnd(long t, uint operationId)
    {
        _wmiEvents++;
        if (operationId == 0) return;
        for (int i = _wmiQueries.Count - 1; i >= 0; i--)
            if (_wmiQueries[i].OperationId == operationId)
            {
                _wmiQueries[i].EndNs = Math.Min(_wmiQueries[i].EndNs, t);
                return;
            }
    }

    /// <summary>Finishes calls still open at <paramref name="traceEndNs"/> and builds the table.</summary>
    public Table<RenderCostRow> Build(long traceEndNs)
    {
        foreach (var (thread, call) in _serving)
            if (_running.RunningSince(thread) is { } since) call.CpuNs += Math.Max(0, traceEndNs - Math.Max(since, call.StartNs));
        _matcher.EndOfTrace(traceEndNs, _finished);
        _serving.Clear();
        _rpcOpen.Clear();

        var serviceIds = _everServices.Select(p => p.Pid).ToHashSet();
        var table = _rows.Build(NameOfFile, serviceIds.Contains, Final,
            cpuKnown: _running.Switches > 0, registryKnown: _registryEvents > 0, readsKnown: _fileReads > 0, out var counts);
        var legacyClients = _legacyClients.Select(c => Final(c.Process, c.Time)).Distinct().ToArray();
        new EventLogNotes(table).Add(new EventLogFacts(
            _everServices.Select(p => Final(p, traceEndNs)).ToArray(), _rpcCallEvents, _even6Events, _foreignServerCalls + counts.ForeignServerCalls, _running.Switches, _registryEvents,
            _fileReads, _wmiEvents, counts.WmiHostCallsWithoutQuery, _clientOnly + counts.ClientOnlyCalls, _serverOnly - counts.ForeignServerOnlyCalls,
            _unfinished, counts.UnnamedReadBytes, _matcher.DroppedClients, _matcher.DroppedServers, _matcher.StoppedLate, counts.EarlyServedCalls, counts.WmiAmbiguousCalls, counts.WmiAfterEndCalls,
            _legacyClientCalls > 0 ? _legacyClientCalls : _legacyServerCalls, legacyClients, _rendersWithGuessedLog, _rendersWithCarriedLog));
        return table;
    }

    private Even6Call? StartServer(long t, int cpu, int pid, int threadId, int opnum, int protocol)
    {
        // A process already known not to be the service (another one is) never serves; one not yet known may
        // turn out to be it when rundown at the end names it, so its calls are kept and judged when the table is built.
        if (!_services.TryGetValue(pid, out var service))
        {
            if (_services.Count > 0 && _processes.TryGetValue(pid, out var known) && known.Name != ProcessRef.Unknown.Name)
            {
                _foreignServerCalls++;
                return null;
            }
            service = ProcessOf(pid);
        }
        var call = new Even6Call(RpcSide.Server, service, threadId, opnum, protocol, t) { BeforeKernelEvents = !_running.HasSwitched(cpu) };
        _running.Seen(t, cpu, threadId);
        _serving[threadId] = call;
        _matcher.ServerStarted(call, _finished);
        return call;
    }

    private Even6Call? StartClient(long t, int pid, int threadId, int opnum, int protocol)
    {
        if (_services.ContainsKey(pid)) return null;
        var process = Identity(pid, t);
        // Whether the client is a WMI provider host is judged when the table is built (end rundown may name it
        // only then); every call remembers the Win32_NTLogEvent query it most likely serves.
        var (served, ambiguous, afterEnd) = WmiQueryServedBy(pid, t);
        var call = new Even6Call(RpcSide.Client, process, threadId, opnum, protocol, t)
        {
            OnBehalfOf = served?.Client, WmiQuery = served?.Query, WmiAmbiguous = ambiguous, WmiAfterEnd = afterEnd,
        };
        _matcher.ClientStarted(call, _finished);
        return call;
    }

    /// <summary>
    /// The Win32_NTLogEvent query a call from process <paramref name="pid"/> at <paramref name="t"/> serves, if it is a
    /// provider host, among the queries started before it that this host serves by event 12 or whose host the trace
    /// does not name (never one another host serves): the latest still running (event 13 not yet come) of this host's,
    /// else of the unnamed ones; when none runs, the latest of this host's, else of the unnamed. Ambiguous when more
    /// than one of them was running; after their end when none was.
    /// </summary>
    private (WmiQuery? Query, bool Ambiguous, bool AfterEnd) WmiQueryServedBy(int pid, long t)
    {
        WmiQuery? ownRunning = null, unnamedRunning = null, ownLatest = null, unnamedLatest = null;
        int running = 0;
        for (int i = _wmiQueries.Count - 1; i >= 0; i--)
        {
            var q = _wmiQueries[i];
            if (q.StartNs > t || (q.HostId != 0 && q.HostId != pid)) continue;
            bool own = q.HostId == pid;
            if (own) ownLatest ??= q;
            else unnamedLatest ??= q;
            if (q.EndNs <= t) continue;
            running++;
            if (own) ownRunning ??= q;
            else unnamedRunning ??= q;
            if (running > 1 && ownRunning is not null) break; // the choice and the ambiguity are known
        }
        var running1 = ownRunning ?? unnamedRunning;
        return (running1 ?? ownLatest ?? unnamedLatest, running > 1, running1 is null && (ownLatest ?? unnamedLatest) is not null);
    }

    /// <summary>A finished call (client with its server, client alone, or server alone) goes into its row.</summary>
    private void Finished(Even6Call call, Even6Call? server)
    {
        if (call.Side == RpcSide.Server)
        {
            server = call;
            _serverOnly++;
        }
        else if (server is null)
        {
            _clientOnly++;
        }
        if (call.Unfinished || server is { Unfinished: true }) _unfinished++;
        if (server is { StoppedLate: true, IsOpen: true })
        {
            // Counted now, its stop not logged (yet): its cost ends soon after its client returned. The thread's slice
            // running then is charged up to there, and its later work is no longer this call's.
            if (call.Side == RpcSide.Client && _running.RunningSince(server.ThreadId) is { } since)
                server.CpuNs += Math.Max(0, call.StopNs + Even6CallMatcher.StopSkewNs - Math.Max(since, server.StartNs));
            if (_serving.TryGetValue(server.ThreadId, out var serving) && serving == server) _serving.Remove(server.ThreadId);
        }

        var client = call.Side == RpcSide.Client ? call : null;
        ulong log = server is null ? 0 : LogRead(server);
        if (client is not null)
        {
            var thread = (client.Process.Pid, client.ThreadId);
            // A query reads its log; a render reads none of it (the client sends the event), so what a render
            // happens to read (a message DLL's .mui, unnamed until the end) never names or changes the log: it
            // takes its thread's most recent query's, and its own reads only when no query came before it.
            if (call.Kind != Even6CallKind.Render && log != 0)
            {
                // A query whose service call might have been another reader's names its log only by a guess.
                var named = (log, server!.GuessedPeer ? LogSource.GuessedPeer : LogSource.Read);
                _threadLog[thread] = named;
                _processLog[client.Process.Pid] = named;
            }
            else if (_threadLog.TryGetValue(thread, out var known) || _processLog.TryGetValue(client.Process.Pid, out known))
            {
                log = known.Log;
                // A new query that read no log (the service had it in memory) may be on another log than the last:
                // it and the calls after it keep the last one's, said to be carried over.
                if (call.Opnum == Even6.RegisterLogQuery && known.Source != LogSource.Carried) _threadLog[thread] = known = (known.Log, LogSource.Carried);
                if (call.Kind == Even6CallKind.Render)
                {
                    if (known.Source == LogSource.GuessedPeer) _rendersWithGuessedLog++;
                    else if (known.Source == LogSource.Carried) _rendersWithCarriedLog++;
                }
            }
        }
        long first = Math.Min(call.StartNs, server?.StartNs ?? long.MaxValue);
        long last = Math.Max(call.StopNs, server?.StopNs ?? long.MinValue);
        _rows.Add(client?.Process, client?.OnBehalfOf, client?.WmiQuery, log, call, server, first, last, early: server?.BeforeKernelEvents == true,
            wmiAmbiguous: client?.WmiAmbiguous == true, wmiAfterEnd: client?.WmiAfterEnd == true);
    }

    /// <summary>The file a server call read most of, leaving out files already known not to be logs.</summary>
    private ulong LogRead(Even6Call server)
    {
        if (server.Reads is not { } reads) return 0;
        ulong best = 0;
        long most = -1;
        foreach (var (file, bytes) in reads)
        {
            if (_otherFiles.Contains(file) && !_evtxNames.ContainsKey(file)) continue;
            if (bytes > most) (best, most) = (file, bytes);
        }
        return best;
    }

    private string? NameOfFile(ulong key)
    {
        if (_evtxNames.TryGetValue(key, out var name)) return name;
        if (_objectOfKey.TryGetValue(key, out var obj) && _evtxNames.TryGetValue(obj, out name)) return name;
        return _otherFiles.Contains(key) || (obj != 0 && _otherFiles.Contains(obj)) ? "" : null;
    }

    /// <summary>The process instance a row shows: from the pipeline's state as the whole trace describes it, else from the facts fed.</summary>
    private ProcessRef Final(ProcessRef process, long timeNs) =>
        IsRemote(process) ? process
        : _processAt is not null ? _processAt(process.Pid, timeNs)
        : process.Name == ProcessRef.Unknown.Name && _lateNames.TryGetValue(process.Pid, out var name) ? process with { Name = name } : process;

    private ProcessRef Identity(int pid, long timeNs) => _processAt?.Invoke(pid, timeNs) ?? ProcessOf(pid);

    private void AddService(ProcessRef process)
    {
        _services[process.Pid] = process;
        if (!_everServices.Contains(process)) _everServices.Add(process);
    }

    private ProcessRef ProcessOf(int pid)
    {
        if (!_processes.TryGetValue(pid, out var p)) _processes[pid] = p = new ProcessRef(pid, long.MinValue, ProcessRef.Unknown.Name);
        return p;
    }

    private static string NameOf(string imageName)
    {
        var name = EventLogService.FileName(imageName);
        return name.Length == 0 ? ProcessRef.Unknown.Name : name.ToString();
    }

    /// <summary>A Win32_NTLogEvent query (WMI-Activity event 11), with its end once event 13 gives it.</summary>
    private sealed class WmiQuery(long startNs, ProcessRef client, string query, uint groupOperationId, uint operationId)
    {
        public long StartNs { get; } = startNs;
        public ProcessRef Client { get; } = client;
        public string Query { get; } = query;
        public uint GroupOperationId { get; } = groupOperationId;
        public uint OperationId { get; } = operationId;
        public long EndNs { get; set; } = long.MaxValue;

        /// <summary>The provider host serving it (WMI-Activity event 12 of its group), or 0 while none is named.</summary>
        public int HostId { get; set; }
    }
}

/// <summary>How a reader's thread came to know the log its calls read.</summary>
internal enum LogSource
{
    /// <summary>Its query's service call read the log.</summary>
    Read,
    /// <summary>Its query's service call read the log, but which reader that call served is the matcher's guess.</summary>
    GuessedPeer,
    /// <summary>A later query read no log (the service answered from memory): the log is the one before it.</summary>
    Carried,
}
