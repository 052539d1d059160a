using System.Globalization;

namespace HiddenCost.Etl.State;

/// <summary>
/// What a code address is, as far as the trace tells without symbol files: a .NET method (JIT code, from CLR
/// method events), an offset in an image (<c>module+0xRVA</c>), or an unknown address.
/// </summary>
public readonly record struct ResolvedFrame(ulong Address, ImageInfo? Image, ClrMethodInfo? Method)
{
    /// <summary>Offset of <see cref="Address"/> in <see cref="Image"/> (0 without an image).</summary>
    public ulong Rva => Image is null ? 0 : Address - Image.ImageBase;

    /// <summary>The module's file name, or "" when the address is in no known image (JIT code, unknown).</summary>
    public string ModuleName => Image?.FileName ?? "";

    public bool IsManaged => Method is not null;
    public bool IsResolved => Method is not null || Image is not null;

    /// <summary><c>Namespace.Type.Method</c> for managed code, <c>module+0xRVA</c> for native code, else <c>0xADDRESS</c>.</summary>
    public string Name =>
        Method is not null ? Method.FullName
        : Image is not null ? Image.FileName + "+0x" + Rva.ToString("X", CultureInfo.InvariantCulture)
        : "0x" + Address.ToString("X", CultureInfo.InvariantCulture);

    public override string ToString() => Name;
}
