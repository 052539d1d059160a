using Microsoft.Performance.SDK.Processing;

namespace HiddenCost.Wpa.Tests.Host;

/// <summary>WPA downloads PDBs only when the user sets the processing source's symbol-downloads option.</summary>
[TestClass]
public sealed class SymbolDownloadsOptionTests
{
    [TestMethod]
    public void Source_declares_the_symbol_downloads_option()
    {
        var option = new HiddenCostProcessingSource().CommandLineOptions.Single();
        Assert.AreEqual("symbol-downloads", option.Name);
        Assert.AreSame(WpaSymbols.AllowDownloads, option);
    }

    [TestMethod]
    public void Downloads_are_off_by_default_and_on_only_when_the_option_is_set()
    {
        Assert.IsFalse(WpaSymbols.DownloadsAllowed(ProcessorOptions.Default));
        Assert.IsFalse(WpaSymbols.DownloadsAllowed(new ProcessorOptions([new OptionInstance("something-else")])));
        Assert.IsTrue(WpaSymbols.DownloadsAllowed(new ProcessorOptions([new OptionInstance(WpaSymbols.AllowDownloads.Id)])));
    }
}
