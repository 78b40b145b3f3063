// Which files the image pickers accept (docs/product.md#admin-site-settings). The server sniffs the bytes
// anyway; this only saves a pointless upload.

export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/jpg', 'image/gif', 'image/webp'];
export const IMAGE_ACCEPT = IMAGE_TYPES.join(',');
export const INVALID_TYPE_HINT = 'Please select a valid image file (PNG, JPEG, JPG, GIF, WEBP)';

export const isAcceptedImage = (file: File) =>
  IMAGE_TYPES.includes(file.type) || /\.(png|jpe?g|gif|webp)$/i.test(file.name);
