using HiddenCost.Symbols.Fuzz;
using SharpFuzz;

// Modes (README.md beside this file):
//   (no arguments)            libFuzzer, through libfuzzer-dotnet
//   --afl                     AFL, out of process (afl-fuzz ... dotnet HiddenCost.Symbols.Fuzz.dll --afl)
//   --corpus <dir>            writes seed inputs: the built fixtures (two PDBs and the MSZIP .pd_)
//   --replay <file|dir>...    runs the target on saved inputs (a crash found by a fuzzer, or a corpus)
switch (args.FirstOrDefault())
{
    case null:
        Fuzzer.LibFuzzer.Run(span => FuzzTarget.Run(span.ToArray()));
        return 0;
    case "--afl":
        Fuzzer.OutOfProcess.Run(stream =>
        {
            using var memory = new MemoryStream();
            stream.CopyTo(memory);
            FuzzTarget.Run(memory.ToArray());
        });
        return 0;
    case "--corpus" when args.Length == 2:
        return Corpus.Write(args[1]);
    case "--replay" when args.Length >= 2:
        var files = args.Skip(1).SelectMany(p => Directory.Exists(p) ? Directory.GetFiles(p) : new[] { p }).ToList();
        foreach (var file in files) Console.WriteLine($"{FuzzTarget.Run(File.ReadAllBytes(file)),-8} {file}");
        Console.WriteLine($"{files.Count} inputs, no crash");
        return 0;
    default:
        Console.Error.WriteLine("usage: HiddenCost.Symbols.Fuzz [--afl | --corpus <dir> | --replay <file|dir>...]");
        return 2;
}

/// <summary>Seeds: the committed PDB fixtures (small: 72–76 KB, most of it the streams the publics need) and the .pd_.</summary>
internal static class Corpus
{
    public static int Write(string folder)
    {
        var fixtures = FindFixtures();
        if (fixtures is null)
        {
            Console.Error.WriteLine("error: tests/HiddenCost.Symbols.Tests/Fixtures not found above the program's folder or the working directory: run from the repository");
            return 2;
        }
        Directory.CreateDirectory(folder);
        foreach (var file in new[] { "native.pdb", "x86.pdb", "native.pd_" })
        {
            var target = Path.Combine(folder, file);
            File.Copy(Path.Combine(fixtures, file), target, overwrite: true);
            Console.WriteLine($"{new FileInfo(target).Length,8} bytes  {target}");
        }
        return 0;
    }

    private static string? FindFixtures()
    {
        foreach (var start in new[] { AppContext.BaseDirectory, Environment.CurrentDirectory })
            for (var dir = new DirectoryInfo(start); dir is not null; dir = dir.Parent)
            {
                var candidate = Path.Combine(dir.FullName, "tests", "HiddenCost.Symbols.Tests", "Fixtures");
                if (Directory.Exists(candidate)) return candidate;
            }
        return null;
    }
}
