using System;

namespace Microsoft.Performance.SDK.Processing
{
    public interface IProcessorEnvironment
    {
        ILogger CreateLogger(Type processorType);
    }
}
