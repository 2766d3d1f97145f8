package io.jkubelet.cri;

import io.grpc.stub.StreamObserver;
import io.jkubelet.cri.v1.CriApi;
import io.jkubelet.cri.v1.ImageServiceGrpc;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The CRI {@code ImageService} of the fake runtime, upstream's {@code FakeImageService} served over gRPC: images kept
 * by id, found by id, tag or digest as containerd resolves them; a pull of an unknown name makes an image of that
 * name. An absent image is an empty ImageStatus and a RemoveImage that succeeds, as the CRI says.
 */
final class FakeImageService extends ImageServiceGrpc.ImageServiceImplBase {

    private final FakeCriRecorder recorder;

    final Map<String, CriApi.Image> images = new LinkedHashMap<>();
    /** ImageFsInfo's answer. */
    final List<CriApi.FilesystemUsage> filesystems = new ArrayList<>();

    FakeImageService(FakeCriRecorder recorder) {
        this.recorder = recorder;
    }

    @Override
    public void listImages(CriApi.ListImagesRequest request, StreamObserver<CriApi.ListImagesResponse> out) {
        recorder.answer("ListImages", request, out,
                () -> CriApi.ListImagesResponse.newBuilder().addAllImages(images.values()).build());
    }

    @Override
    public void imageStatus(CriApi.ImageStatusRequest request, StreamObserver<CriApi.ImageStatusResponse> out) {
        recorder.answer("ImageStatus", request, out, () -> {
            CriApi.ImageStatusResponse.Builder b = CriApi.ImageStatusResponse.newBuilder();
            find(request.getImage().getImage()).ifPresent(b::setImage);
            return b.build();
        });
    }

    @Override
    public void pullImage(CriApi.PullImageRequest request, StreamObserver<CriApi.PullImageResponse> out) {
        recorder.answer("PullImage", request, out, () -> {
            String name = request.getImage().getImage();
            CriApi.Image image = find(name).orElseGet(() -> add(idOf(name), name));
            return CriApi.PullImageResponse.newBuilder().setImageRef(image.getId()).build();
        });
    }

    @Override
    public void removeImage(CriApi.RemoveImageRequest request, StreamObserver<CriApi.RemoveImageResponse> out) {
        recorder.answer("RemoveImage", request, out, () -> {
            find(request.getImage().getImage()).ifPresent(i -> images.remove(i.getId()));
            return CriApi.RemoveImageResponse.getDefaultInstance();
        });
    }

    @Override
    public void imageFsInfo(CriApi.ImageFsInfoRequest request, StreamObserver<CriApi.ImageFsInfoResponse> out) {
        recorder.answer("ImageFsInfo", request, out,
                () -> CriApi.ImageFsInfoResponse.newBuilder().addAllImageFilesystems(filesystems).build());
    }

    /** Adds an image of 1 MiB with these tags, which runs as the image's default user. */
    CriApi.Image add(String id, String... tags) {
        return add(CriApi.Image.newBuilder().setId(id).addAllRepoTags(List.of(tags)).setSize(1 << 20).build());
    }

    CriApi.Image add(CriApi.Image image) {
        images.put(image.getId(), image);
        return image;
    }

    Optional<CriApi.Image> find(String reference) {
        return images.values().stream().filter(i -> i.getId().equals(reference)
                || i.getRepoTagsList().contains(reference) || i.getRepoDigestsList().contains(reference)).findFirst();
    }

    /** A content-like id for a pulled name, stable across pulls. */
    static String idOf(String name) {
        try {
            return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(name.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
