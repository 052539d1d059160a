using System;

namespace Microsoft.Performance.SDK.Processing
{
    /// <summary>The host's log (WPA: Window → Diagnostic Console).</summary>
    public interface ILogger
    {
        void Error(string fmt, params object[] args);

        void Error(Exception e, string fmt, params object[] args);

        void Warn(string fmt, params object[] args);

        void Info(string fmt, params object[] args);
    }
}
