using System.Runtime.InteropServices;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;

namespace HiddenCost.Wpa.Tests.Contract;

/// <summary>Compiles C# source into an assembly image named like the SDK, to list deliberately wrong declarations.</summary>
public static class InMemoryAssembly
{
    public static byte[] Compile(string source)
    {
        var references = Directory.GetFiles(RuntimeEnvironment.GetRuntimeDirectory(), "*.dll")
            .Where(IsManaged)
            .Select(path => MetadataReference.CreateFromFile(path));
        var compilation = CSharpCompilation.Create(
            "Microsoft.Performance.SDK",
            [CSharpSyntaxTree.ParseText("[assembly: System.Reflection.AssemblyVersion(\"1.2.0.0\")]\n" + source)],
            references,
            new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary));
        using var image = new MemoryStream();
        var result = compilation.Emit(image);
        if (!result.Success)
            throw new InvalidOperationException("test source does not compile: " + string.Join("; ", result.Diagnostics.Where(d => d.Severity == DiagnosticSeverity.Error)));
        return image.ToArray();
    }

    private static bool IsManaged(string path)
    {
        try
        {
            System.Reflection.AssemblyName.GetAssemblyName(path);
            return true;
        }
        catch (BadImageFormatException)
        {
            return false;
        }
    }
}
