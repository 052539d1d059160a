namespace HiddenCost.Analysis.Tables.EventLog;

/// <summary>
/// Matches client calls to the service's server calls. No event carries the client's identity across the
/// process boundary, so a server call is matched to a client call on the same opnum (and protocol) that
/// nests it: client start ≤ server start ≤ server stop ≤ client stop + <see cref="StopSkewNs"/>. A server call
/// takes the earliest waiting client at its start (requests are served in arrival order); when a client returns
/// while its server call is still running the guess was wrong, and it trades servers with a waiting client whose
/// finished server call nests in it. Finished pairs (or lone calls) are handed back to be counted, so memory holds
/// only open calls.
/// </summary>
internal sealed class Even6CallMatcher
{
    /// <summary>
    /// Open client calls in start order; a call whose stop was lost would stay forever, so the list is bounded: far
    /// above the calls readers keep open at once, low enough that the searches over it stay cheap when stops are lost.
    /// </summary>
    public const int MaxOpenClients = 8_192;

    /// <summary>Server calls waiting for a client; one whose stop was lost would stay forever, so the list is bounded too.</summary>
    public const int MaxUnmatchedServers = 8_192;

    /// <summary>
    /// How long after its client returned a server call may still log its stop and be that client's: the service
    /// sends the reply before it logs the stop, and the woken client may log its own stop first, on another processor.
    /// </summary>
    public const long StopSkewNs = 100_000;

    private readonly List<Even6Call> _openClients = new();
    private readonly List<Even6Call> _unmatchedServers = new();
    private readonly List<Even6Call> _returned = new(); // clients back before their server call logged its stop

    /// <summary>Client calls dropped because too many were open (their stop events were lost).</summary>
    public long DroppedClients { get; private set; }

    /// <summary>Server calls dropped because too many waited unmatched (their stop events were lost).</summary>
    public long DroppedServers { get; private set; }

    /// <summary>Server calls counted as their client's without a stop in time (lost, or late on a busy machine).</summary>
    public long StoppedLate { get; private set; }

    public void ClientStarted(Even6Call client, Action<Even6Call, Even6Call?> finished)
    {
        Expire(client.StartNs, finished);
        if (_openClients.Count >= MaxOpenClients)
        {
            var oldest = _openClients[0];
            _openClients.RemoveAt(0);
            DroppedClients++;
            if (oldest.Peer is { } server)
            {
                server.Peer = null;
                if (server.IsOpen) AddUnmatched(server);
                else finished(server, null);
            }
        }
        _openClients.Add(client);
    }

    public void ServerStarted(Even6Call server, Action<Even6Call, Even6Call?> finished)
    {
        Expire(server.StartNs, finished);
        var client = EarliestWaiting(server, out bool another);
        server.GuessedPeer = another || client is { PassedOver: true };
        if (client is not null) Even6Call.Link(client, server);
        else AddUnmatched(server);
    }

    /// <summary>A server call stopped; an unmatched one that still finds no waiting client is finished alone.</summary>
    public void ServerStopped(Even6Call server, Action<Even6Call, Even6Call?> finished)
    {
        if (server.Peer is { } peer && _returned.Remove(peer))
        {
            // Its client is back already: the stop came just after the reply, or this was not its server after all.
            if (server.StopNs - peer.StopNs <= StopSkewNs)
            {
                finished(peer, server);
                return;
            }
            if (!AnotherWaitingCouldMake(server))
            {
                // Late, but no other reader could have made this call: the service thread was slow to log its stop.
                server.StoppedLate = true;
                StoppedLate++;
                finished(peer, server);
                return;
            }
            Unlink(peer, server);
            finished(peer, null);
        }
        else if (server.Peer is { IsOpen: true } waiting && Returned(server) is { } back)
        {
            // A client already back, whose own guessed server call still runs, returned just before this one
            // stopped: this call is most likely its, and its running call the waiting client's (concurrent readers
            // answered out of order). The two trade, as Repair trades when the stops come the other way round.
            _returned.Remove(back);
            var running = back.Peer!;
            if (waiting.CanBeServedBy(running))
            {
                Even6Call.Link(waiting, running);
                running.GuessedPeer = true;
            }
            else
            {
                Unlink(waiting, running);
                AddUnmatched(running);
            }
            Even6Call.Link(back, server);
            server.GuessedPeer = true;
            finished(back, server);
            return;
        }
        Expire(server.StopNs, finished);
        if (server.Peer is not null) return; // counted when its client returns
        // Searched from the end: the call stopping is almost always one of the latest to start, and calls whose stop
        // was lost pile up at the front.
        int at = _unmatchedServers.LastIndexOf(server);
        if (at >= 0) _unmatchedServers.RemoveAt(at);
        var client = EarliestWaiting(server, out bool another);
        server.GuessedPeer |= another || client is { PassedOver: true };
        if (client is not null) Even6Call.Link(client, server);
        else finished(server, null);
    }

    /// <summary>A client call returned: it is finished with the server call that nests in it, or alone.</summary>
    public void ClientStopped(Even6Call client, Action<Even6Call, Even6Call?> finished)
    {
        Expire(client.StopNs, finished);
        // Searched from the end: the client returning is almost always one of the latest to start, and calls whose
        // stop was lost pile up at the front.
        int at = _openClients.LastIndexOf(client);
        if (at < 0) return;
        _openClients.RemoveAt(at);
        if (client.Peer is null || client.Peer.IsOpen) Repair(client);
        if (client.Peer is { IsOpen: true })
        {
            // Its server call still runs: it is this client's only if it logs its stop within the skew (Expire decides).
            _returned.Add(client);
            return;
        }
        finished(client, client.Peer);
    }

    /// <summary>
    /// Clients back for longer than the skew whose server call has not stopped. When another waiting client could
    /// have made that call, the call outlives this one, so it is the other's: this client is finished alone and the
    /// call waits. When none could, the call is this client's whose stop was lost (or comes late, the service thread
    /// preempted on a busy machine): the two are finished together with the call's cost so far, and the call is
    /// marked <see cref="Even6Call.StoppedLate"/>.
    /// </summary>
    private void Expire(long now, Action<Even6Call, Even6Call?> finished)
    {
        if (_returned.Count == 0) return;
        for (int i = 0; i < _returned.Count; i++)
        {
            var client = _returned[i];
            if (now - client.StopNs <= StopSkewNs) continue;
            _returned.RemoveAt(i--);
            var server = client.Peer!;
            if (!AnotherWaitingCouldMake(server))
            {
                server.StoppedLate = true;
                StoppedLate++;
                finished(client, server);
                continue;
            }
            Unlink(client, server);
            AddUnmatched(server);
            finished(client, null);
        }
    }

    /// <summary>A client back within the skew before <paramref name="server"/> stopped that it may have served (the latest back).</summary>
    private Even6Call? Returned(Even6Call server)
    {
        Even6Call? best = null;
        foreach (var client in _returned)
            // It must have started before the client was back, and stopped within the skew after.
            if (client.CanBeServedBy(server) && server.StartNs <= client.StopNs && server.StopNs - client.StopNs <= StopSkewNs
                && (best is null || client.StopNs > best.StopNs))
                best = client;
        return best;
    }

    private static void Unlink(Even6Call client, Even6Call server)
    {
        client.Peer = null;
        server.Peer = null;
    }

    /// <summary>The trace ended: everything still open is finished as it stands, up to the end.</summary>
    public void EndOfTrace(long traceEndNs, Action<Even6Call, Even6Call?> finished)
    {
        Expire(long.MaxValue, finished);
        foreach (var call in _openClients.Concat(_openClients.Select(c => c.Peer)).Concat(_unmatchedServers))
            if (call is { IsOpen: true })
            {
                call.StopNs = Math.Max(traceEndNs, call.StartNs);
                call.Unfinished = true;
            }
        foreach (var server in _unmatchedServers.ToArray())
        {
            var client = EarliestWaiting(server);
            if (client is null) continue;
            Even6Call.Link(client, server);
            _unmatchedServers.Remove(server);
        }
        foreach (var client in _openClients) finished(client, client.Peer);
        foreach (var server in _unmatchedServers) finished(server, null);
        _openClients.Clear();
        _unmatchedServers.Clear();
    }

    private void AddUnmatched(Even6Call server)
    {
        if (_unmatchedServers.Count >= MaxUnmatchedServers)
        {
            _unmatchedServers.RemoveAt(0);
            DroppedServers++;
        }
        _unmatchedServers.Add(server);
    }

    private Even6Call? EarliestWaiting(Even6Call server) => EarliestWaiting(server, out _);

    private bool AnotherWaitingCouldMake(Even6Call server)
    {
        foreach (var c in _openClients)
            if (c.Peer is null && c.CanBeServedBy(server)) return true;
        return false;
    }

    /// <param name="another">Whether a second waiting client could have been served by it too.</param>
    private Even6Call? EarliestWaiting(Even6Call server, out bool another)
    {
        Even6Call? first = null;
        another = false;
        foreach (var c in _openClients)
        {
            if (c.Peer is not null || !c.CanBeServedBy(server)) continue;
            if (first is not null)
            {
                // Whichever server this one gets later was chosen by the same guess.
                another = true;
                c.PassedOver = true;
                break;
            }
            first = c;
        }
        return first;
    }

    /// <summary>
    /// Gives <paramref name="client"/> a finished server call that nests in it, taken from another waiting
    /// client (the one whose server finished last, as a client returns right after its server); that client
    /// gets <paramref name="client"/>'s running server call when it may, else waits for another.
    /// </summary>
    private void Repair(Even6Call client)
    {
        var current = client.Peer;
        Even6Call? donor = null;
        foreach (var other in _openClients)
        {
            if (other.Peer is not { IsOpen: false } finishedServer || !client.CanBeServedBy(finishedServer)) continue;
            if (current is not null && !other.CanBeServedBy(current)) continue;
            if (donor is null || finishedServer.StopNs > donor.Peer!.StopNs) donor = other;
        }
        if (donor is null) return;
        var taken = donor.Peer!;
        taken.GuessedPeer = true; // the first guess was wrong; the trade is a guess too
        if (current is not null) current.GuessedPeer = true;
        Even6Call.Link(client, taken);
        if (current is not null) Even6Call.Link(donor, current);
        else donor.Peer = null;
    }
}
