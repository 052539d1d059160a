using System.Text;

namespace HiddenCost.Cli.Input;

/// <summary>
/// The bytes of this process's arguments as the system passed them. On Linux a file name is any bytes, and .NET
/// decodes arguments as UTF-8, putting U+FFFD for the bytes that are not: such a name names no file. The original
/// bytes are in /proc/self/cmdline (NUL-separated, the runtime's own arguments first, the program's last).
/// </summary>
public static class CommandLineBytes
{
    /// <summary>
    /// For each of <paramref name="args"/>, its bytes when they are not UTF-8, else null; null when they cannot be
    /// told (not Linux, no /proc, or a command line that does not end with these arguments).
    /// </summary>
    public static IReadOnlyList<byte[]?>? Recover(IReadOnlyList<string> args)
    {
        if (!OperatingSystem.IsLinux() || !args.Any(a => a.Contains('\uFFFD'))) return null;
        byte[] cmdline;
        try
        {
            cmdline = File.ReadAllBytes("/proc/self/cmdline");
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
        return Match(cmdline, args);
    }

    /// <summary>
    /// The arguments whose bytes are not UTF-8, by the text .NET made of them. Two such arguments that .NET made the
    /// same text of are left out: neither could be told from the other, and opening the wrong file would be a lie.
    /// </summary>
    public static IReadOnlyDictionary<string, byte[]> NativeNames(IReadOnlyList<string> args)
    {
        var names = new Dictionary<string, byte[]>(StringComparer.Ordinal);
        if (Recover(args) is not { } bytes) return names;
        var ambiguous = new HashSet<string>(StringComparer.Ordinal);
        for (int i = 0; i < args.Count; i++)
        {
            if (bytes[i] is not { } b) continue;
            if (names.TryGetValue(args[i], out var other) && !other.AsSpan().SequenceEqual(b)) ambiguous.Add(args[i]);
            else names[args[i]] = b;
        }
        foreach (var name in ambiguous) names.Remove(name);
        return names;
    }

    /// <summary>Pairs the last arguments of a NUL-separated command line with <paramref name="args"/> (exposed for tests).</summary>
    public static IReadOnlyList<byte[]?>? Match(ReadOnlySpan<byte> cmdline, IReadOnlyList<string> args)
    {
        var all = new List<byte[]>();
        while (!cmdline.IsEmpty)
        {
            int end = cmdline.IndexOf((byte)0);
            if (end < 0) end = cmdline.Length;
            all.Add(cmdline[..end].ToArray());
            cmdline = cmdline[Math.Min(end + 1, cmdline.Length)..];
        }
        if (all.Count < args.Count) return null;
        var result = new byte[]?[args.Count];
        var utf8 = new UTF8Encoding(false, throwOnInvalidBytes: true);
        for (int i = 0; i < args.Count; i++)
        {
            var bytes = all[all.Count - args.Count + i];
            // Each must decode to the argument .NET gave, or the two lists are not the same arguments.
            if (Encoding.UTF8.GetString(bytes) != args[i]) return null;
            try
            {
                utf8.GetString(bytes);
            }
            catch (DecoderFallbackException)
            {
                result[i] = bytes;
            }
        }
        return result;
    }
}
