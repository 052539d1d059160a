namespace Microsoft.Performance.SDK.Processing
{
    public interface IProjector<in TSource, out TResult>
    {
        TResult this[TSource value] { get; }
    }
}
