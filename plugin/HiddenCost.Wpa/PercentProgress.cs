namespace HiddenCost.Wpa;

/// <summary>
/// Turns the analyzer's progress (a fraction, 0 to 1) into WPA's (whole percent), reporting only steps forward: a
/// progress bar that goes back reads as work undone.
/// </summary>
internal sealed class PercentProgress : IProgress<double>
{
    private readonly IProgress<int>? _host;
    private int _last = -1;

    public PercentProgress(IProgress<int>? host) => _host = host;

    public void Report(double value)
    {
        int percent = double.IsNaN(value) ? 0 : (int)Math.Clamp(Math.Floor(value * 100), 0, 100);
        if (percent <= _last) return;
        _last = percent;
        _host?.Report(percent);
    }
}
