// s3up/s3up.h: the umbrella header. Uploading needs client.h (which brings body.h, sigv4.h and checksum.h),
// or transfer.h for upload() (objects of any size, multipart above a threshold); testing against a local S3
// needs mock_server.h.
#pragma once

#include "s3up/body.h"
#include "s3up/checksum.h"
#include "s3up/client.h"
#include "s3up/mock_server.h"
#include "s3up/sigv4.h"
#include "s3up/transfer.h"
