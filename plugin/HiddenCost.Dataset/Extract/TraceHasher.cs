using System.Security.Cryptography;
using System.Text;

namespace HiddenCost.Dataset.Extract;

/// <summary>A trace's identity: the SHA-256 of its content, so a copied or renamed trace is the same trace.</summary>
public static class TraceHasher
{
    public static string OfContent(string path)
    {
        using var file = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.Read, bufferSize: 1 << 20, FileOptions.SequentialScan);
        return Convert.ToHexStringLower(SHA256.HashData(file));
    }

    /// <summary>The identity of a file that could not be read: its full path's (it has no content to hash).</summary>
    public static string OfUnreadable(string path) =>
        Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes("unreadable:" + Path.GetFullPath(path))));
}
