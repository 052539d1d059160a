using System;

namespace Microsoft.Performance.SDK.Processing
{
    /// <summary>The host application, as seen by a processing source and its processors.</summary>
    public interface IApplicationEnvironment
    {
        ITableConfigurationsSerializer Serializer { get; }

        /// <summary>Whether a user is there to read messages (WPA's window; not a batch export or a headless engine).</summary>
        bool IsInteractive { get; }

        void DisplayMessage(MessageType messageType, IFormatProvider formatProvider, string format, params object[] args);
    }
}
