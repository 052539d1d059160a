namespace HiddenCost.Samples;

/// <summary>
/// Runs a reproducer: usage on --help, a clear message and exit code 2 on a non-Windows OS (the problems and the
/// ETW recording are Windows-only), exit code 1 with the usage on a bad option.
/// </summary>
internal static class SampleHost
{
    public const int NotWindows = 2;

    public static int Run(string name, string usage, string[] args, Func<SampleOptions, int> body)
    {
        SampleOptions options;
        try
        {
            options = SampleOptions.Parse(args);
        }
        catch (SampleUsageException e)
        {
            Console.Error.WriteLine($"{name}: {e.Message}\n\n{usage}");
            return 1;
        }
        if (options.HelpRequested)
        {
            Console.WriteLine(usage);
            return 0;
        }
        if (!OperatingSystem.IsWindows())
        {
            Console.Error.WriteLine($"{name} reproduces a Windows problem (recorded with WPR, analysed in WPA or by hiddencost) " +
                $"and runs only on Windows; this is {System.Runtime.InteropServices.RuntimeInformation.OSDescription}. Nothing was done.");
            return NotWindows;
        }
        try
        {
            return body(options);
        }
        catch (SampleUsageException e)
        {
            Console.Error.WriteLine($"{name}: {e.Message}\n\n{usage}");
            return 1;
        }
    }
}
