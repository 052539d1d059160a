using System.Reflection;
using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;
using Microsoft.Performance.SDK.Processing;

namespace HiddenCost.Wpa.Tests.Host;

/// <summary>
/// Finds processing sources the way the SDK's plugin loader does: every managed assembly in a folder that
/// references Microsoft.Performance.SDK is loaded, and each public class carrying [ProcessingSource], deriving
/// from ProcessingSource and having a public parameterless constructor is a processing source.
/// </summary>
public static class PluginDiscovery
{
    public static IReadOnlyList<Type> ProcessingSources(string folder) =>
        Directory.GetFiles(folder, "*.dll")
            .Where(ReferencesSdk)
            .Select(Assembly.LoadFrom)
            .SelectMany(a => a.GetExportedTypes())
            .Where(t => t.IsClass && !t.IsAbstract
                && typeof(ProcessingSource).IsAssignableFrom(t)
                && t.GetCustomAttribute<ProcessingSourceAttribute>() is not null
                && t.GetConstructor(Type.EmptyTypes) is not null)
            .ToList();

    private static bool ReferencesSdk(string path)
    {
        using var stream = File.OpenRead(path);
        using var pe = new PEReader(stream);
        if (!pe.HasMetadata) return false;
        var metadata = pe.GetMetadataReader();
        if (!metadata.IsAssembly) return false;
        return metadata.AssemblyReferences
            .Select(handle => metadata.GetString(metadata.GetAssemblyReference(handle).Name))
            .Contains("Microsoft.Performance.SDK");
    }
}
