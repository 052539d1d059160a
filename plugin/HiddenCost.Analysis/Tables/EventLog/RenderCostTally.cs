using HiddenCost.Analysis.Common;
using HiddenCost.Analysis.Model;

namespace HiddenCost.Analysis.Tables.EventLog;

/// <summary>
/// Sums finished calls into rows of client process × on-behalf-of × log. The log is kept as a file key while
/// the trace is read (names often arrive only with the file rundown at the end) and named when the table is
/// built; keys that turn out to name the same log merge then.
/// </summary>
internal sealed class RenderCostTally
{
    private readonly Dictionary<RowKey, Sums> _rows = new();

    /// <param name="early">The server call began before the kernel session's events on its processor (<see cref="Even6Call.BeforeKernelEvents"/>).</param>
    public void Add(ProcessRef? client, ProcessRef? onBehalfOf, string? wmiQuery, ulong logKey, Even6Call call, Even6Call? server, long firstNs, long lastNs,
        bool early = false, bool wmiAmbiguous = false, bool wmiAfterEnd = false)
    {
        var key = new RowKey(client, onBehalfOf, wmiQuery, logKey, server?.Process.Pid ?? 0, early);
        if (!_rows.TryGetValue(key, out var s)) _rows[key] = s = new Sums();
        s.Calls++;
        if (wmiAmbiguous) s.WmiAmbiguousCalls++;
        if (wmiAfterEnd) s.WmiAfterEndCalls++;
        switch (call.Kind)
        {
            case Even6CallKind.Render:
                s.Renders++;
                break;
            case Even6CallKind.QueryNext:
                s.Queries++;
                break;
        }
        if (server is not null)
        {
            s.ServedCalls++;
            if (call.Kind == Even6CallKind.Render) s.ServedRenders++;
            s.CpuNs += server.CpuNs;
            s.RegistryOps += server.RegistryOps;
            if (server.Reads is { } reads)
                foreach (var (file, bytes) in reads)
                    s.Reads[file] = s.Reads.GetValueOrDefault(file) + bytes;
        }
        s.First = Math.Min(s.First, firstNs);
        s.Last = Math.Max(s.Last, lastNs);
    }

    /// <summary>
    /// Builds the table. <paramref name="fileName"/> names a file key (null when the trace never did, "" for a
    /// file known not to be a log); <paramref name="isService"/> says whether a process id was the EventLog
    /// service (known for sure only at the end: rundown may come last), so server calls of other processes count
    /// as no server at all; <paramref name="final"/> gives the process instance to show for one seen at a time
    /// (rundown at the end may name it only then). A WMI query is shown only for clients that are WMI provider hosts.
    /// </summary>
    public Table<RenderCostRow> Build(Func<ulong, string?> fileName, Func<int, bool> isService, Func<ProcessRef, long, ProcessRef> final,
        bool cpuKnown, bool registryKnown, bool readsKnown, out BuildCounts counts)
    {
        counts = default;
        var merged = new Dictionary<(ProcessRef? Client, ProcessRef? OnBehalfOf, string? Query, string Log), Sums>();
        foreach (var (key, s) in _rows)
        {
            bool foreign = key.ServerPid != 0 && !isService(key.ServerPid);
            // Served before the kernel session's events began (when the trace has them at all): the calls count,
            // their cost cannot be seen, and counting them as free would lower every per-message figure.
            bool early = key.Early && cpuKnown && !foreign;
            if (early) counts.EarlyServedCalls += s.ServedCalls;
            if (foreign)
            {
                // Served by a process that turned out not to be the EventLog service: the client's calls stay, unserved.
                counts.ForeignServerCalls += s.ServedCalls;
                if (key.Client is null)
                {
                    counts.ForeignServerOnlyCalls += s.ServedCalls;
                    continue;
                }
                counts.ClientOnlyCalls += s.ServedCalls;
            }
            var log = key.LogKey != 0 && fileName(key.LogKey) is { } path ? EvtxLogName.FromPath(path) : null;
            var client = key.Client is null ? null : final(key.Client, s.First);
            bool wmiHost = client is not null && WmiEventLogQuery.IsProviderHost(client.Name);
            var onBehalfOf = wmiHost && key.OnBehalfOf is not null ? final(key.OnBehalfOf, s.First) : null;
            if (wmiHost && onBehalfOf is null) counts.WmiHostCallsWithoutQuery += s.Calls;
            if (wmiHost && onBehalfOf is not null)
            {
                counts.WmiAmbiguousCalls += s.WmiAmbiguousCalls;
                counts.WmiAfterEndCalls += s.WmiAfterEndCalls;
            }
            var mkey = (client, onBehalfOf, onBehalfOf is null ? null : key.WmiQuery, log ?? "Unknown");
            if (!merged.TryGetValue(mkey, out var m)) merged[mkey] = m = new Sums();
            m.Merge(s, served: !foreign && !early);
        }

        var rows = new List<RenderCostRow>();
        foreach (var ((client, onBehalfOf, query, log), s) in merged)
        {
            long evtxBytes = 0;
            foreach (var (file, bytes) in s.Reads)
            {
                var path = fileName(file);
                if (path is null) counts.UnnamedReadBytes += bytes;
                else if (EvtxLogName.IsEvtx(path)) evtxBytes += bytes;
            }
            bool served = s.ServedCalls > 0;
            double? cpuMs = served && cpuKnown ? s.CpuNs / 1e6 : null;
            long? registryOps = served && registryKnown ? s.RegistryOps : null;
            double? seconds = s.Last > s.First ? (s.Last - s.First) / 1e9 : null;
            rows.Add(new RenderCostRow(
                Process: client?.Name ?? "Unknown",
                Pid: client?.PidCell,
                OnBehalfOf: onBehalfOf?.Name,
                OnBehalfOfPid: onBehalfOf?.PidCell,
                Log: log,
                Renders: s.Renders,
                Queries: s.Queries,
                ServiceCpuMs: cpuMs,
                CpuPerMessageMs: s.ServedRenders > 0 ? cpuMs / s.ServedRenders : null,
                RegistryOps: registryOps,
                RegistryOpsPerMessage: s.ServedRenders > 0 ? (double?)registryOps / s.ServedRenders : null,
                EvtxReadMb: served && readsKnown ? evtxBytes / EventLogTables.BytesPerMegabyte : null,
                MessagesPerSecond: seconds is > 0 && s.Renders > 0 ? s.Renders / seconds : null,
                WmiQuery: query,
                First: s.First,
                Last: s.Last
            ));
        }
        rows.Sort(static (a, b) =>
        {
            int c = Nullable.Compare(b.ServiceCpuMs, a.ServiceCpuMs);
            if (c == 0) c = b.Renders.CompareTo(a.Renders);
            if (c == 0) c = string.Compare(a.Process, b.Process, StringComparison.OrdinalIgnoreCase);
            if (c == 0) c = Nullable.Compare(a.Pid, b.Pid);
            if (c == 0) c = string.Compare(a.Log, b.Log, StringComparison.OrdinalIgnoreCase);
            if (c == 0) c = string.Compare(a.OnBehalfOf, b.OnBehalfOf, StringComparison.OrdinalIgnoreCase);
            return c;
        });
        return EventLogTables.RenderCost.Table(rows);
    }

    /// <summary>What building the table found out about calls counted earlier.</summary>
    public struct BuildCounts
    {
        public long ForeignServerCalls, ForeignServerOnlyCalls, ClientOnlyCalls, UnnamedReadBytes, WmiHostCallsWithoutQuery, EarlyServedCalls, WmiAmbiguousCalls, WmiAfterEndCalls;
    }

    private readonly record struct RowKey(ProcessRef? Client, ProcessRef? OnBehalfOf, string? WmiQuery, ulong LogKey, int ServerPid, bool Early);

    private sealed class Sums
    {
        public long Calls, Renders, ServedRenders, Queries, ServedCalls, CpuNs, RegistryOps, WmiAmbiguousCalls, WmiAfterEndCalls;
        public long First = long.MaxValue, Last = long.MinValue;
        public readonly Dictionary<ulong, long> Reads = new();

        public void Merge(Sums o, bool served)
        {
            Calls += o.Calls;
            Renders += o.Renders;
            Queries += o.Queries;
            if (served)
            {
                ServedRenders += o.ServedRenders;
                ServedCalls += o.ServedCalls;
                CpuNs += o.CpuNs;
                RegistryOps += o.RegistryOps;
                foreach (var (file, bytes) in o.Reads) Reads[file] = Reads.GetValueOrDefault(file) + bytes;
            }
            First = Math.Min(First, o.First);
            Last = Math.Max(Last, o.Last);
        }
    }
}
