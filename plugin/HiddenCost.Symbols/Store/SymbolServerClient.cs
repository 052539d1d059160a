using System.Collections.Concurrent;
using System.Net;
using HiddenCost.Symbols.Msf;
using HiddenCost.Symbols.Resolution;

namespace HiddenCost.Symbols.Store;

/// <summary>
/// Downloads PDBs from HTTP(S) symbol servers into a store, as symsrv asks: <c>name.pdb/SIGNATURE/name.pdb</c>, then the
/// compressed <c>name.pd_</c>, then <c>file.ptr</c>. Downloads run a bounded number at a time, each with a timeout,
/// and are written under a temporary name and renamed into place when complete. An HTML page (a login or error page
/// answered with 200) or anything else that is not a PDB or a cabinet is a miss. A server that refuses connections
/// or does not answer in time is marked down and not asked again: a dead server costs one timeout, not one per image.
/// </summary>
internal sealed class SymbolServerClient : IDisposable
{
    private enum Outcome { Saved, Miss, Down }

    private readonly HttpClient _http;
    private readonly bool _ownsHttp;
    private readonly SymbolServerOptions _options;
    private readonly SemaphoreSlim _slots;
    private readonly ConcurrentDictionary<string, string> _down = new(StringComparer.OrdinalIgnoreCase);

    public SymbolServerClient(SymbolServerOptions options, HttpClient? http = null)
    {
        _options = options;
        _ownsHttp = http is null;
        _http = http ?? NewHttpClient();
        _slots = new SemaphoreSlim(Math.Max(1, options.MaxParallelDownloads));
    }

    // Timeouts are the client's own (per request, per download), so HttpClient's single timeout is off.
    private static HttpClient NewHttpClient()
    {
        var client = new HttpClient(new SocketsHttpHandler { AutomaticDecompression = DecompressionMethods.All }) { Timeout = Timeout.InfiniteTimeSpan };
        client.DefaultRequestHeaders.UserAgent.ParseAdd("HiddenCost-Symbols/1.0");
        return client;
    }

    /// <summary>Servers found down in this run, with why.</summary>
    public IReadOnlyDictionary<string, string> DownServers => _down;

    /// <summary>Fetches the PDB from <paramref name="server"/> into <paramref name="store"/>: its path, or null and why not.</summary>
    public async Task<(string? Path, string Note)> FetchAsync(string server, PdbKey key, string store, CancellationToken cancel)
    {
        await _slots.WaitAsync(cancel).ConfigureAwait(false);
        try
        {
            // Asked after the wait for a slot: the server may have been found down meanwhile.
            if (_down.TryGetValue(server, out var why)) return (null, $"{server}: not asked, it is down ({why})");
            var target = StoreLayout.StoredPath(store, key);
            if (File.Exists(target)) return (target, $"{target} (downloaded meanwhile)");
            var folder = $"{server}/{Uri.EscapeDataString(key.PdbName)}/{key.Signature}/";
            var (outcome, path, note) = await GetAsync(server, folder + Uri.EscapeDataString(key.PdbName), key, store, cancel).ConfigureAwait(false);
            if (outcome != Outcome.Miss) return (path, note);
            var notes = new List<string> { note };
            (outcome, path, note) = await GetAsync(server, folder + Uri.EscapeDataString(StoreLayout.CompressedName(key.PdbName)), key, store, cancel).ConfigureAwait(false);
            if (outcome != Outcome.Miss) return (path, note);
            notes.Add(note);
            (outcome, path, note) = await FollowPointerAsync(server, folder + StoreLayout.FilePointerName, key, store, cancel).ConfigureAwait(false);
            if (outcome != Outcome.Miss) return (path, note);
            notes.Add(note);
            return (null, string.Join("; ", notes));
        }
        finally
        {
            _slots.Release();
        }
    }

    private async Task<(Outcome, string?, string)> FollowPointerAsync(string server, string url, PdbKey key, string store, CancellationToken cancel)
    {
        var (outcome, text, note) = await GetTextAsync(server, url, cancel).ConfigureAwait(false);
        if (outcome != Outcome.Saved) return (outcome, null, note);
        var pointer = FilePointer.Parse(text!);
        if (pointer.Target is null) return (Outcome.Miss, null, $"{url}: {pointer.Message}");
        if (pointer.IsUrl) return await GetAsync(server, pointer.Target, key, store, cancel).ConfigureAwait(false);
        if (!File.Exists(pointer.Target)) return (Outcome.Miss, null, $"{url} points to {pointer.Target}, which is not there");
        if (!pointer.Target.EndsWith('_')) return (Outcome.Saved, pointer.Target, $"{pointer.Target} (from {url})");
        return (Outcome.Saved, await CabinetExpansion.ExpandAsync(pointer.Target, key, store).ConfigureAwait(false), $"{pointer.Target} (from {url})");
    }

    /// <summary>GETs a PDB or a cabinet (told apart by their first bytes) into the store.</summary>
    private async Task<(Outcome, string?, string)> GetAsync(string server, string url, PdbKey key, string store, CancellationToken cancel)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancel);
        timeout.CancelAfter(_options.RequestTimeout);
        HttpResponseMessage response;
        try
        {
            response = await _http.GetAsync(url, HttpCompletionOption.ResponseHeadersRead, timeout.Token).ConfigureAwait(false);
        }
        catch (Exception e) when (!cancel.IsCancellationRequested && e is HttpRequestException or OperationCanceledException)
        {
            return MarkDown(server, e is OperationCanceledException ? $"no answer within {_options.RequestTimeout.TotalSeconds:0} s" : e.Message);
        }
        using (response)
        {
            if (!response.IsSuccessStatusCode) return (Outcome.Miss, null, $"{url}: {(int)response.StatusCode} {response.ReasonPhrase}");
            if (response.Content.Headers.ContentType?.MediaType is "text/html") return (Outcome.Miss, null, $"{url}: an HTML page, not a PDB");
            timeout.CancelAfter(_options.DownloadTimeout);
            try
            {
                await using var body = await response.Content.ReadAsStreamAsync(timeout.Token).ConfigureAwait(false);
                var head = new byte[MsfSignature.ProbeLength];
                int got = await ReadFullyAsync(body, head, timeout.Token).ConfigureAwait(false);
                bool cabinet = got >= 4 && head.AsSpan(0, 4).SequenceEqual("MSCF"u8);
                if (!cabinet && (got < head.Length || MsfSignature.Check(head) is { Unsupported: false }))
                    return (Outcome.Miss, null, $"{url}: the answer is not a PDB");
                long? total = response.Content.Headers.ContentLength;
                var target = StoreLayout.StoredPath(store, key);
                var saveAs = cabinet ? Path.Combine(Path.GetDirectoryName(target)!, StoreLayout.CompressedName(key.PdbName)) : target;
                await AtomicFile.WriteAsync(saveAs, file => CopyAsync(url, head.AsMemory(0, got), body, file, total, timeout.Token)).ConfigureAwait(false);
                if (!cabinet) return (Outcome.Saved, target, url);
                try
                {
                    return (Outcome.Saved, await CabinetExpansion.ExpandAsync(saveAs, key, store).ConfigureAwait(false), url);
                }
                finally
                {
                    File.Delete(saveAs);
                }
            }
            catch (Exception e) when (!cancel.IsCancellationRequested && e is HttpRequestException or OperationCanceledException or IOException)
            {
                return (Outcome.Miss, null, $"{url}: the download failed ({(e is OperationCanceledException ? $"not done within {_options.DownloadTimeout}" : e.Message)})");
            }
        }
    }

    private async Task<(Outcome, string?, string)> GetTextAsync(string server, string url, CancellationToken cancel)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancel);
        timeout.CancelAfter(_options.RequestTimeout);
        try
        {
            using var response = await _http.GetAsync(url, HttpCompletionOption.ResponseHeadersRead, timeout.Token).ConfigureAwait(false);
            if (!response.IsSuccessStatusCode) return (Outcome.Miss, null, $"{url}: {(int)response.StatusCode} {response.ReasonPhrase}");
            if (response.Content.Headers.ContentType?.MediaType is "text/html") return (Outcome.Miss, null, $"{url}: an HTML page, not a file.ptr");
            await using var body = await response.Content.ReadAsStreamAsync(timeout.Token).ConfigureAwait(false);
            var buffer = new byte[FilePointer.MaxBytes];
            int got = await ReadFullyAsync(body, buffer, timeout.Token).ConfigureAwait(false);
            return (Outcome.Saved, System.Text.Encoding.UTF8.GetString(buffer, 0, got), url);
        }
        catch (Exception e) when (!cancel.IsCancellationRequested && e is HttpRequestException or OperationCanceledException)
        {
            return MarkDown(server, e is OperationCanceledException ? $"no answer within {_options.RequestTimeout.TotalSeconds:0} s" : e.Message);
        }
    }

    private (Outcome, string?, string) MarkDown(string server, string why)
    {
        _down.TryAdd(server, why);
        return (Outcome.Down, null, $"{server}: down ({why})");
    }

    private async Task CopyAsync(string url, ReadOnlyMemory<byte> head, Stream body, Stream file, long? total, CancellationToken cancel)
    {
        await file.WriteAsync(head, cancel).ConfigureAwait(false);
        long received = head.Length, reported = 0;
        var buffer = new byte[81920];
        int n;
        while ((n = await body.ReadAsync(buffer, cancel).ConfigureAwait(false)) > 0)
        {
            await file.WriteAsync(buffer.AsMemory(0, n), cancel).ConfigureAwait(false);
            received += n;
            if (received - reported >= 1 << 20)
            {
                reported = received;
                _options.Progress?.Report(new SymbolDownloadProgress(url, received, total, false));
            }
        }
        if (total is { } expected && received != expected)
            throw new IOException($"{received} bytes received of the {expected} announced");
        _options.Progress?.Report(new SymbolDownloadProgress(url, received, total, true));
    }

    private static async Task<int> ReadFullyAsync(Stream s, byte[] buffer, CancellationToken cancel)
    {
        int total = 0, n;
        while (total < buffer.Length && (n = await s.ReadAsync(buffer.AsMemory(total), cancel).ConfigureAwait(false)) > 0) total += n;
        return total;
    }

    public void Dispose()
    {
        _slots.Dispose();
        if (_ownsHttp) _http.Dispose();
    }
}
