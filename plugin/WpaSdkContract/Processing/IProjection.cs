namespace Microsoft.Performance.SDK.Processing
{
    /// <summary>Maps a row index (or any source) to a cell value.</summary>
    public interface IProjection<in TSource, out TResult> : IProjector<TSource, TResult>
    {
    }
}
