using System.Collections.Concurrent;
using System.Net;
using System.Net.Sockets;
using System.Text;

namespace HiddenCost.Symbols.Tests.Support;

/// <summary>
/// A minimal HTTP/1.1 server on 127.0.0.1 serving a store folder (GET only, one request per connection), so
/// symbol-server tests run against a real socket without leaving the machine. Paths can be overridden with fixed
/// answers (an HTML page, a status), and every request is counted. With <c>silent</c> it accepts connections and
/// never answers: a server that hangs.
/// </summary>
internal sealed class LoopbackSymbolServer : IDisposable
{
    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly string _root;
    private readonly bool _silent;
    private readonly CancellationTokenSource _stop = new();
    private readonly ConcurrentBag<TcpClient> _held = new();

    public LoopbackSymbolServer(string root, bool silent = false)
    {
        _root = root;
        _silent = silent;
        _listener.Start();
        _ = AcceptLoop();
    }

    public string Url => $"http://127.0.0.1:{((IPEndPoint)_listener.LocalEndpoint).Port}";
    public ConcurrentQueue<string> Requests { get; } = new();
    public int Connections;
    public int MaxInFlight;
    private int _inFlight;

    /// <summary>How long each answer waits (to see how many requests run at once).</summary>
    public TimeSpan Delay { get; set; }
    public ConcurrentDictionary<string, (int Status, string ContentType, byte[] Body)> Overrides { get; } = new(StringComparer.OrdinalIgnoreCase);

    private async Task AcceptLoop()
    {
        while (!_stop.IsCancellationRequested)
        {
            TcpClient client;
            try
            {
                client = await _listener.AcceptTcpClientAsync(_stop.Token);
            }
            catch (Exception)
            {
                return;
            }
            Interlocked.Increment(ref Connections);
            if (_silent)
            {
                _held.Add(client);
                continue;
            }
            _ = Task.Run(() => Serve(client));
        }
    }

    private async Task Serve(TcpClient client)
    {
        int now = Interlocked.Increment(ref _inFlight);
        int max;
        while (now > (max = MaxInFlight) && Interlocked.CompareExchange(ref MaxInFlight, now, max) != max) { }
        try
        {
            await Answer(client);
        }
        finally
        {
            Interlocked.Decrement(ref _inFlight);
        }
    }

    private async Task Answer(TcpClient client)
    {
        using (client)
        {
            var stream = client.GetStream();
            var reader = new StreamReader(stream, Encoding.ASCII);
            var requestLine = await reader.ReadLineAsync();
            while (!string.IsNullOrEmpty(await reader.ReadLineAsync())) { }
            var path = Uri.UnescapeDataString(requestLine?.Split(' ')[1] ?? "/");
            Requests.Enqueue(path);
            if (Delay > TimeSpan.Zero) await Task.Delay(Delay);
            var (status, type, body) = Answer(path);
            var head = $"HTTP/1.1 {status} {(status == 200 ? "OK" : "Not Found")}\r\nContent-Type: {type}\r\nContent-Length: {body.Length}\r\nConnection: close\r\n\r\n";
            await stream.WriteAsync(Encoding.ASCII.GetBytes(head));
            await stream.WriteAsync(body);
        }
    }

    private (int, string, byte[]) Answer(string path)
    {
        if (Overrides.TryGetValue(path, out var fixedAnswer)) return fixedAnswer;
        var file = Path.Combine(_root, path.TrimStart('/'));
        return File.Exists(file) ? (200, "application/octet-stream", File.ReadAllBytes(file)) : (404, "text/plain", "not found"u8.ToArray());
    }

    public void Dispose()
    {
        _stop.Cancel();
        _listener.Stop();
        foreach (var c in _held) c.Dispose();
    }
}
