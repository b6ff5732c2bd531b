// Trampolines for the libheif functions Mapwright calls: each finds the real one in libheif on
// its first call (see CLibraryLoader).
#include "CHeif.h"

#include "CLibraryLoader.h"

static mw_library mw_heif = {"libheif", {"libheif.so.1", "libheif.so", NULL}, PTHREAD_ONCE_INIT, NULL};

enum heif_filetype_result heif_check_filetype(const uint8_t* data, int len) {
    MW_LAZY_FUNCTION(mw_heif, heif_check_filetype)
    return fn(data, len);
}

struct heif_context* heif_context_alloc(void) {
    MW_LAZY_FUNCTION(mw_heif, heif_context_alloc)
    return fn();
}

void heif_context_free(struct heif_context* ctx) {
    MW_LAZY_FUNCTION(mw_heif, heif_context_free)
    fn(ctx);
}

struct heif_error heif_context_get_primary_image_handle(struct heif_context* ctx, struct heif_image_handle** handle) {
    MW_LAZY_FUNCTION(mw_heif, heif_context_get_primary_image_handle)
    return fn(ctx, handle);
}

struct heif_error heif_context_read_from_memory_without_copy(struct heif_context* ctx, const void* mem, size_t size, const struct heif_reading_options* options) {
    MW_LAZY_FUNCTION(mw_heif, heif_context_read_from_memory_without_copy)
    return fn(ctx, mem, size, options);
}

struct heif_error heif_decode_image(const struct heif_image_handle* in_handle, struct heif_image** out_img, enum heif_colorspace colorspace, enum heif_chroma chroma, const struct heif_decoding_options* options) {
    MW_LAZY_FUNCTION(mw_heif, heif_decode_image)
    return fn(in_handle, out_img, colorspace, chroma, options);
}

void heif_deinit(void) {
    MW_LAZY_FUNCTION(mw_heif, heif_deinit)
    fn();
}

int heif_image_get_height(const struct heif_image* image, enum heif_channel channel) {
    MW_LAZY_FUNCTION(mw_heif, heif_image_get_height)
    return fn(image, channel);
}

const uint8_t* heif_image_get_plane_readonly(const struct heif_image* image, enum heif_channel channel, int* out_stride) {
    MW_LAZY_FUNCTION(mw_heif, heif_image_get_plane_readonly)
    return fn(image, channel, out_stride);
}

int heif_image_get_width(const struct heif_image* image, enum heif_channel channel) {
    MW_LAZY_FUNCTION(mw_heif, heif_image_get_width)
    return fn(image, channel);
}

int heif_image_handle_get_height(const struct heif_image_handle* handle) {
    MW_LAZY_FUNCTION(mw_heif, heif_image_handle_get_height)
    return fn(handle);
}

struct heif_error heif_image_handle_get_metadata(const struct heif_image_handle* handle, heif_item_id metadata_id, void* out_data) {
    MW_LAZY_FUNCTION(mw_heif, heif_image_handle_get_metadata)
    return fn(handle, metadata_id, out_data);
}

size_t heif_image_handle_get_metadata_size(const struct heif_image_handle* handle, heif_item_id metadata_id) {
    MW_LAZY_FUNCTION(mw_heif, heif_image_handle_get_metadata_size)
    return fn(handle, metadata_id);
}

int heif_image_handle_get_number_of_thumbnails(const struct heif_image_handle* handle) {
    MW_LAZY_FUNCTION(mw_heif, heif_image_handle_get_number_of_thumbnails)
    return fn(handle);
}

struct heif_error heif_image_handle_get_thumbnail(const struct heif_image_handle* main_image_handle, heif_item_id thumbnail_id, struct heif_image_handle** out_thumbnail_handle) {
    MW_LAZY_FUNCTION(mw_heif, heif_image_handle_get_thumbnail)
    return fn(main_image_handle, thumbnail_id, out_thumbnail_handle);
}

int heif_image_handle_get_width(const struct heif_image_handle* handle) {
    MW_LAZY_FUNCTION(mw_heif, heif_image_handle_get_width)
    return fn(handle);
}

void heif_image_handle_release(const struct heif_image_handle* handle) {
    MW_LAZY_FUNCTION(mw_heif, heif_image_handle_release)
    fn(handle);
}

void heif_image_release(const struct heif_image* image) {
    MW_LAZY_FUNCTION(mw_heif, heif_image_release)
    fn(image);
}

struct heif_error heif_init(struct heif_init_params* params) {
    MW_LAZY_FUNCTION(mw_heif, heif_init)
    return fn(params);
}

int heif_image_handle_get_list_of_metadata_block_IDs(const struct heif_image_handle* handle, const char* type_filter, heif_item_id* ids, int count) {
    MW_LAZY_FUNCTION(mw_heif, heif_image_handle_get_list_of_metadata_block_IDs)
    return fn(handle, type_filter, ids, count);
}

int heif_image_handle_get_list_of_thumbnail_IDs(const struct heif_image_handle* handle, heif_item_id* ids, int count) {
    MW_LAZY_FUNCTION(mw_heif, heif_image_handle_get_list_of_thumbnail_IDs)
    return fn(handle, ids, count);
}

int heif_image_handle_get_number_of_metadata_blocks(const struct heif_image_handle* handle, const char* type_filter) {
    MW_LAZY_FUNCTION(mw_heif, heif_image_handle_get_number_of_metadata_blocks)
    return fn(handle, type_filter);
}
