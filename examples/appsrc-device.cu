/* An application that keeps its frames on the GPU end to end:
 *
 *   appsrc (device frames its own kernel writes) ! cudadeinterlace
 *     ! cudablur ! appsink (frames it reads on the GPU)
 *
 * Frames come from a pool of our device memory, are written through
 * gst_cuda_fx_frame_map () on the application's own CUDA stream, and the
 * output frames are read back the same way by a checksum kernel. No frame
 * crosses PCIe. To check itself it runs the same chain from system memory
 * (the same frames made on the CPU, cudafxupload ... cudafxdownload) and
 * compares every output frame's checksum.
 *
 *   nvcc -o appsrc-device appsrc-device.cu \
 *     $(pkg-config --cflags --libs gstreamer-cudafx-1.0 gstreamer-app-1.0)
 *   ./appsrc-device [FRAMES]
 *
 * Exit status: 0 when every checksum matched, 1 when not, 77 without a
 * GPU. */
#include <gst/gst.h>
#include <gst/app/app.h>
#include <gst/cudafx.h>
#include <stdio.h>
#include <stdlib.h>

#define W 1280
#define H 720
#define CAPS "format=I420,width=1280,height=720,framerate=25/1," \
    "interlace-mode=interleaved,field-order=top-field-first"
#define CHAIN "cudadeinterlace ! cudablur sigma=2"

/* the picture of frame @n, component @c, at x, y: a moving gradient */
__host__ __device__ static unsigned char
pattern (int x, int y, int n, int c)
{
  return (unsigned char) ((x * 3 + y * 5 + n * 7 + c * 50) ^ (y * n));
}

__global__ void
fill (GstCudaFxPlane p, int n, int c)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;

  if (x < p.width && y < p.height)
    p.data[(size_t) y * p.pitch + (size_t) x * p.step] = pattern (x, y, n, c);
}

/* sum of (sample * (position + 1)) over the component: a checksum that
 * sees a sample in the wrong place */
__global__ void
checksum (GstCudaFxPlane p, unsigned long long *sum)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;

  if (x < p.width && y < p.height)
    atomicAdd (sum, (unsigned long long) p.data[(size_t) y * p.pitch +
            (size_t) x * p.step] * ((unsigned long long) y * p.width + x + 1));
}

static dim3
grid_of (const GstCudaFxPlane * p)
{
  return dim3 ((p->width + 31) / 32, (p->height + 7) / 8);
}

static GstElement *
start (const char *launch)
{
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch (launch, &error);

  if (!pipeline) {
    fprintf (stderr, "%s: %s\n", launch, error->message);
    exit (1);
  }
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  return pipeline;
}

static GstElement *
child (GstElement * pipeline, const char *name)
{
  GstElement *e = gst_bin_get_by_name (GST_BIN (pipeline), name);

  gst_object_unref (e);         /* the pipeline keeps it */
  return e;
}

/* frame @n of the 25 frames/s stream into the appsrc (which takes @buf) */
static void
push_frame (GstElement * pipeline, GstBuffer * buf, int n)
{
  GST_BUFFER_PTS (buf) = n * GST_SECOND / 25;
  GST_BUFFER_DURATION (buf) = GST_SECOND / 25;
  gst_app_src_push_buffer (GST_APP_SRC (child (pipeline, "src")), buf);
}

static void
stop (GstElement * pipeline)
{
  GstMessage *msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline),
      0, GST_MESSAGE_ERROR);

  if (msg) {
    GError *error = NULL;

    gst_message_parse_error (msg, &error, NULL);
    fprintf (stderr, "error: %s\n", error->message);
    exit (1);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
}

/* The device chain; one checksum an output frame into @sums */
static int
run_device (GstCudaFxContext * ctx, int frames, unsigned long long *sums)
{
  GstElement *pipeline = start ("appsrc name=src format=time caps="
      "\"video/x-raw(memory:CUDAFxMemory)," CAPS "\" ! " CHAIN " ! "
      "appsink name=sink sync=false");
  GstCaps *caps = gst_caps_from_string ("video/x-raw(memory:CUDAFxMemory),"
      CAPS);
  GstBufferPool *pool = gst_cuda_fx_buffer_pool_new (ctx);
  GstStructure *config = gst_buffer_pool_get_config (pool);
  unsigned long long *dsum, host;
  GstVideoInfo info;
  cudaStream_t stream;
  GstSample *sample;
  int n, c, out = 0;

  gst_video_info_from_caps (&info, caps);
  gst_buffer_pool_config_set_params (config, caps, 0, 4, 0);
  if (!gst_buffer_pool_set_config (pool, config)
      || !gst_buffer_pool_set_active (pool, TRUE)) {
    fprintf (stderr, "cannot start the device pool\n");
    exit (1);
  }
  gst_cuda_fx_context_make_current (ctx);
  cudaStreamCreateWithFlags (&stream, cudaStreamNonBlocking);
  cudaMalloc (&dsum, sizeof (*dsum));

  for (n = 0; n < frames; n++) {
    GstBuffer *buf = NULL;
    GstCudaFxFrame f;
    GError *error = NULL;

    gst_buffer_pool_acquire_buffer (pool, &buf, NULL);
    /* our stream waits (on the GPU) for the buffer's last readers */
    if (!gst_cuda_fx_frame_map (&f, &info, buf, GST_MAP_WRITE, ctx, stream,
            &error)) {
      fprintf (stderr, "map: %s\n", error->message);
      exit (1);
    }
    for (c = 0; c < 3; c++)
      fill <<< grid_of (&f.comp[c]), dim3 (32, 8), 0, stream >>> (f.comp[c],
          n, c);
    /* the elements wait (on the GPU) for our kernels */
    gst_cuda_fx_frame_unmap (&f);
    push_frame (pipeline, buf, n);
  }
  gst_app_src_end_of_stream (GST_APP_SRC (child (pipeline, "src")));

  while ((sample = gst_app_sink_pull_sample (GST_APP_SINK (child (pipeline,
                  "sink"))))) {
    GstVideoInfo oinfo;
    GstCudaFxFrame f;
    GError *error = NULL;

    gst_video_info_from_caps (&oinfo, gst_sample_get_caps (sample));
    if (!gst_cuda_fx_frame_map (&f, &oinfo, gst_sample_get_buffer (sample),
            GST_MAP_READ, ctx, stream, &error)) {
      fprintf (stderr, "map: %s\n", error->message);
      exit (1);
    }
    cudaMemsetAsync (dsum, 0, sizeof (*dsum), stream);
    for (c = 0; c < 3; c++)
      checksum <<< grid_of (&f.comp[c]), dim3 (32, 8), 0, stream >>>
          (f.comp[c], dsum);
    gst_cuda_fx_frame_unmap (&f);
    cudaMemcpyAsync (&host, dsum, sizeof (host), cudaMemcpyDeviceToHost,
        stream);
    cudaStreamSynchronize (stream);     /* the application wants the number */
    if (out < 2 * frames)
      sums[out] = host;
    out++;
    gst_sample_unref (sample);
  }
  stop (pipeline);
  gst_buffer_pool_set_active (pool, FALSE);
  gst_object_unref (pool);
  gst_caps_unref (caps);
  cudaFree (dsum);
  cudaStreamDestroy (stream);
  if (cudaGetLastError () != cudaSuccess)
    fprintf (stderr, "a CUDA call failed\n");
  return out;
}

/* The same frames made on the CPU, through upload and download */
static int
run_system (int frames, unsigned long long *sums)
{
  GstElement *pipeline = start ("appsrc name=src format=time caps="
      "\"video/x-raw," CAPS "\" ! cudafxupload ! " CHAIN " ! cudafxdownload "
      "! appsink name=sink sync=false");
  GstVideoInfo info;
  GstCaps *caps = gst_caps_from_string ("video/x-raw," CAPS);
  GstSample *sample;
  int n, c, x, y, out = 0;

  gst_video_info_from_caps (&info, caps);
  for (n = 0; n < frames; n++) {
    GstBuffer *buf = gst_buffer_new_allocate (NULL, info.size, NULL);
    GstVideoFrame f;

    gst_video_frame_map (&f, &info, buf, GST_MAP_WRITE);
    for (c = 0; c < 3; c++)
      for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&f, c); y++)
        for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (&f, c); x++)
          ((unsigned char *) GST_VIDEO_FRAME_COMP_DATA (&f, c))[y *
              GST_VIDEO_FRAME_COMP_STRIDE (&f, c) + x] = pattern (x, y, n, c);
    gst_video_frame_unmap (&f);
    push_frame (pipeline, buf, n);
  }
  gst_app_src_end_of_stream (GST_APP_SRC (child (pipeline, "src")));

  while ((sample = gst_app_sink_pull_sample (GST_APP_SINK (child (pipeline,
                  "sink"))))) {
    GstVideoInfo oinfo;
    GstVideoFrame f;
    unsigned long long sum = 0;

    gst_video_info_from_caps (&oinfo, gst_sample_get_caps (sample));
    gst_video_frame_map (&f, &oinfo, gst_sample_get_buffer (sample),
        GST_MAP_READ);
    for (c = 0; c < 3; c++) {
      int w = GST_VIDEO_FRAME_COMP_WIDTH (&f, c);

      for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&f, c); y++)
        for (x = 0; x < w; x++)
          sum += (unsigned long long) ((unsigned char *)
              GST_VIDEO_FRAME_COMP_DATA (&f, c))[y *
              GST_VIDEO_FRAME_COMP_STRIDE (&f, c) + x] *
              ((unsigned long long) y * w + x + 1);
    }
    gst_video_frame_unmap (&f);
    if (out < 2 * frames)
      sums[out] = sum;
    out++;
    gst_sample_unref (sample);
  }
  stop (pipeline);
  gst_caps_unref (caps);
  return out;
}

int
main (int argc, char **argv)
{
  int frames = argc > 1 ? atoi (argv[1]) : 30, n_dev, n_sys, i, bad = 0;
  unsigned long long *dev, *sys;
  GstCudaFxContext *ctx;
  GError *error = NULL;

  gst_init (&argc, &argv);
  if (frames < 1)
    frames = 1;
  ctx = gst_cuda_fx_context_get (0, &error);
  if (!ctx) {
    printf ("no GPU: %s\n", error->message);
    return 77;
  }
  dev = (unsigned long long *) g_new0 (guint64, 2 * frames);
  sys = (unsigned long long *) g_new0 (guint64, 2 * frames);
  n_dev = run_device (ctx, frames, dev);
  n_sys = run_system (frames, sys);
  /* fields=all: two progressive frames per interlaced one */
  if (n_dev != 2 * frames || n_sys != 2 * frames) {
    printf ("%d and %d output frames, want %d\n", n_dev, n_sys, 2 * frames);
    return 1;
  }
  for (i = 0; i < n_dev; i++)
    if (dev[i] != sys[i]) {
      printf ("output frame %d: checksum %llu on the GPU, %llu from system "
          "memory\n", i, dev[i], sys[i]);
      bad++;
    }
  printf ("%d output frames, %d checksums differ\n", n_dev, bad);
  g_free (dev);
  g_free (sys);
  gst_object_unref (ctx);
  return bad ? 1 : 0;
}
