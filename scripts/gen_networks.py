#!/usr/bin/env python3
"""Writes the bundled example networks (examples/networks/*.net.yaml) in canonical form.

Canonical means byte-identical to what `layerfuse-cli convert FILE -` prints: key order,
square kernels/strides as one integer, padding as [top/bottom, left/right] (or [t, l, b, r]
when asymmetric), defaults omitted. Verify after regenerating:

    python3 scripts/gen_networks.py
    for f in examples/networks/*.net.yaml; do
        n=$(basename "$f" .net.yaml); layerfuse-cli convert "$n" - | cmp - "$f"; done

Architectures and where their dimensions come from:
  * L2Net/L3Net family: ConvFusion (Waeijen et al., IEEE Access 2021), Table 6.
  * VGG16, ResNet-18/50/152, MobileNetV2, SqueezeNet 1.0/1.1, AlexNet: the torchvision
    model definitions (224x224x3 input; ResNet bottlenecks stride on the 3x3 as torchvision
    does, "ResNet v1.5"). Batch norm, ReLU and dropout are folded into their producers.
  * GoogLeNet: Szegedy et al., "Going deeper with convolutions" (CVPR 2015), Table 1, with
    the 5x5 branches as published and ceil-mode 3x3/2 max-pooling (BVLC reference model).
  * DMCNN-VD: Syu, Chen, Chuang, "Learning deep convolutional networks for demosaicing"
    (2018), as used in ConvFusion Sec. VI-B: 20 3x3 convolutions, 64 channels, residual.
  * stoutchinin-*: Stoutchinin, Conti, Benini, "Optimally scheduling CNN convolutions for
    efficient memory access", Appendix B; each table row is one layer with its own input.
  * InceptionV3 and Xception: the Keras Applications definitions (keras.applications
    inception_v3 / xception, 299x299x3 input) that ConvFusion Sec. VI-B evaluates; TSO Sec. VI
    uses the same InceptionV3 (its 5th convolution: 80 maps of 73x73, 192 3x3 filters).
    Layer names are Keras's. Checked by tests/core/tst_repro_networks.cpp against Keras's
    parameter counts (conv weights and batch-norm channels).
  * VGG16-E: VGG configuration E of Simonyan and Zisserman (ICLR 2015, Table 1; 16
    convolutions, also known as VGG19), the "VGG16-E" of HW-Flow-Fusion Sec. 5 whose layer
    names (CONV1..CONV16, POOL1..POOL5) it keeps.
  * MobileNet (v1): Howard et al. 2017, Table 1 (width 1.0, 224x224x3), the "MobileNet" of
    Optimus Sec. 7.1; the last depthwise layer has stride 1 (the table's "s2" on a 7x7 map
    that stays 7x7 is a misprint; Keras and the reference model use 1).
  * LeNet-5: LeCun et al. 1998 (32x32x1 input), the "LeNet" of TSO Sec. VI, with C3 fully
    connected to S2 (the original connection table is not used by TensorFlow models).

Standard library only.
"""

import os
import re
import sys

FORMAT = "layerfuse/network@1"

_RESERVED = {"true", "false", "yes", "no", "on", "off", "y", "n", "null", "~", "True", "False",
             "Yes", "No", "On", "Off", "TRUE", "FALSE", "YES", "NO", "ON", "OFF", "Null", "NULL",
             "Y", "N"}


def yaml_str(s):
    """A string as the network writer emits it (core/io/yaml_support.cpp, emitString)."""
    plain = (s and s not in _RESERVED and not re.match(r"[0-9+.\-]", s)
             and re.fullmatch(r"[A-Za-z0-9_\-./@]+", s) is not None)
    if plain:
        return s
    if any(c in s for c in '"\\') or any(ord(c) < 0x20 or ord(c) > 0x7e for c in s):
        raise ValueError("keep descriptions and names printable ASCII without quotes: " + s)
    return '"' + s + '"'


def pair(v):
    return (v, v) if isinstance(v, int) else tuple(v)


class Net:
    """Collects inputs and layers in order, and emits canonical network YAML."""

    def __init__(self, name, description):
        self.name = name
        self.description = description
        self.inputs = []
        self.layers = []
        self.names = set()

    def _add(self, layer):
        if layer["name"] in self.names:
            raise ValueError("duplicate name " + layer["name"])
        for i in layer["inputs"]:
            if i not in self.names:
                raise ValueError(layer["name"] + ": unknown input " + i)
        self.names.add(layer["name"])
        self.layers.append(layer)
        return layer["name"]

    def input(self, name, c, h, w):
        if name in self.names:
            raise ValueError("duplicate name " + name)
        self.names.add(name)
        self.inputs.append((name, c, h, w))
        return name

    def conv(self, name, inp, out, kernel, stride=1, padding=0, groups=1, act=None):
        return self._add(dict(name=name, type="conv", inputs=[inp], out_channels=out,
                              kernel=pair(kernel), stride=pair(stride), padding=padding,
                              groups=groups, activation=act))

    def pool(self, name, inp, mode, kernel, stride=1, padding=0, ceil_mode=False):
        return self._add(dict(name=name, type="pool", inputs=[inp], mode=mode,
                              kernel=pair(kernel), stride=pair(stride), padding=padding,
                              ceil_mode=ceil_mode))

    def global_pool(self, name, inp, mode="avg"):
        return self._add(dict(name=name, type="global_pool", inputs=[inp], mode=mode))

    def fc(self, name, inp, out, act=None):
        return self._add(dict(name=name, type="fc", inputs=[inp], out_features=out,
                              activation=act))

    def add(self, name, inputs, act=None):
        return self._add(dict(name=name, type="add", inputs=list(inputs), activation=act))

    def concat(self, name, inputs):
        return self._add(dict(name=name, type="concat", inputs=list(inputs)))

    def emit(self):
        out = ["format: " + FORMAT, "name: " + yaml_str(self.name)]
        if self.description:
            out.append("description: " + yaml_str(self.description))
        out.append("inputs:")
        for name, c, h, w in self.inputs:
            out.append("  - {name: %s, channels: %d, height: %d, width: %d}"
                       % (yaml_str(name), c, h, w))
        out.append("layers:")
        for l in self.layers:
            out.append("  - name: " + yaml_str(l["name"]))
            out.append("    type: " + l["type"])
            out.append("    inputs: [" + ", ".join(yaml_str(i) for i in l["inputs"]) + "]")
            t = l["type"]
            if t == "conv":
                out.append("    out_channels: %d" % l["out_channels"])
            if t == "fc":
                out.append("    out_features: %d" % l["out_features"])
            if t in ("pool", "global_pool"):
                out.append("    mode: " + l["mode"])
            if t in ("conv", "pool"):
                out.append("    kernel: " + emit_pair(l["kernel"]))
                if l["stride"] != (1, 1):
                    out.append("    stride: " + emit_pair(l["stride"]))
                pad = emit_padding(l["padding"])
                if pad:
                    out.append("    padding: " + pad)
            if t == "conv" and l["groups"] != 1:
                out.append("    groups: %d" % l["groups"])
            if t == "pool" and l["ceil_mode"]:
                out.append("    ceil_mode: true")
            if l.get("activation"):
                out.append("    activation: " + yaml_str(l["activation"]))
        return "\n".join(out) + "\n"


def emit_pair(p):
    return str(p[0]) if p[0] == p[1] else "[%d, %d]" % p


def emit_padding(p):
    if isinstance(p, int):
        p = (p, p, p, p)
    elif len(p) == 2:
        p = (p[0], p[1], p[0], p[1])
    t, l, b, r = p
    if not any(p):
        return ""
    if t == b and l == r:
        return "[%d, %d]" % (t, l)
    return "[%d, %d, %d, %d]" % (t, l, b, r)


# ---------------------------------------------------------------------------------------
# ConvFusion Table 6 synthetic networks: 3x3 convolutions without padding.

def lnet(name, short_desc, h, w, channels):
    n = Net(name, "ConvFusion (Waeijen et al. 2021) Table 6 %s: %s" % (name, short_desc))
    x = n.input("image", 3, h, w)
    for i, c in enumerate(channels, 1):
        x = n.conv("conv%d" % i, x, c, 3)
    return n


def lnets():
    return {
        "l2net": lnet("L2Net", "two 3x3 convolutions on a 20x20x3 input", 20, 20, [4, 4]),
        "l3net": lnet("L3Net", "three 3x3 convolutions on a 22x22x3 input", 22, 22, [4, 4, 4]),
        "l2net-4k": lnet("L2Net 4K", "two 3x3 convolutions on a 3840x2160x3 (4K) input",
                         2160, 3840, [4, 4]),
        "l3net-4k": lnet("L3Net 4K", "three 3x3 convolutions on a 3840x2160x3 (4K) input",
                         2160, 3840, [4, 4, 4]),
        "l2net-wide": lnet("L2NetWide", "L2Net with 1024 intermediate channels, 20x20x3 input",
                           20, 20, [1024, 4]),
        "l3net-wide": lnet("L3NetWide", "L3Net with 1024 intermediate channels, 22x22x3 input",
                           22, 22, [1024, 1024, 4]),
    }


# ---------------------------------------------------------------------------------------
# torchvision architectures.

def vgg16():
    n = Net("VGG16", "VGG16 (Simonyan and Zisserman 2015, configuration D; torchvision vgg16): "
            "13 3x3 convolutions and 3 fully connected layers on a 224x224x3 input")
    x = n.input("image", 3, 224, 224)
    stages = [[64, 64], [128, 128], [256, 256, 256], [512, 512, 512], [512, 512, 512]]
    for s, widths in enumerate(stages, 1):
        for i, c in enumerate(widths, 1):
            x = n.conv("conv%d_%d" % (s, i), x, c, 3, padding=1, act="relu")
        x = n.pool("pool%d" % s, x, "max", 2, stride=2)
    x = n.fc("fc6", x, 4096, act="relu")
    x = n.fc("fc7", x, 4096, act="relu")
    n.fc("fc8", x, 1000)
    return n


def resnet(name, blocks, bottleneck, description):
    n = Net(name, description)
    x = n.input("image", 3, 224, 224)
    x = n.conv("conv1", x, 64, 7, stride=2, padding=3, act="relu")
    x = n.pool("maxpool", x, "max", 3, stride=2, padding=1)
    in_c = 64
    expansion = 4 if bottleneck else 1
    for stage, count in enumerate(blocks):
        width = 64 << stage
        for b in range(count):
            stride = 2 if (stage > 0 and b == 0) else 1
            p = "layer%d.%d." % (stage + 1, b)
            out_c = width * expansion
            if bottleneck:
                y = n.conv(p + "conv1", x, width, 1, act="relu")
                y = n.conv(p + "conv2", y, width, 3, stride=stride, padding=1, act="relu")
                y = n.conv(p + "conv3", y, out_c, 1)
            else:
                y = n.conv(p + "conv1", x, width, 3, stride=stride, padding=1, act="relu")
                y = n.conv(p + "conv2", y, width, 3, padding=1)
            shortcut = x
            if stride != 1 or in_c != out_c:
                shortcut = n.conv(p + "downsample", x, out_c, 1, stride=stride)
            x = n.add(p + "add", [y, shortcut], act="relu")
            in_c = out_c
    x = n.global_pool("avgpool", x)
    n.fc("fc", x, 1000)
    return n


def resnets():
    tv = ("(He et al. 2016; torchvision %s, stride on the 3x3 convolution): %s on a "
          "224x224x3 input, batch norm and ReLU folded")
    return {
        "resnet18": resnet("ResNet-18", [2, 2, 2, 2], False,
                           "ResNet-18 " + tv % ("resnet18", "basic blocks [2, 2, 2, 2]")),
        "resnet50": resnet("ResNet-50", [3, 4, 6, 3], True,
                           "ResNet-50 " + tv % ("resnet50", "bottleneck blocks [3, 4, 6, 3]")),
        "resnet152": resnet("ResNet-152", [3, 8, 36, 3], True,
                            "ResNet-152 " + tv % ("resnet152", "bottleneck blocks [3, 8, 36, 3]")),
    }


def mobilenetv2():
    n = Net("MobileNetV2", "MobileNetV2 1.0 (Sandler et al. 2018, Table 2; torchvision "
            "mobilenet_v2): inverted residual blocks with depthwise 3x3 convolutions on a "
            "224x224x3 input, batch norm and ReLU6 folded")
    x = n.input("image", 3, 224, 224)
    x = n.conv("conv_stem", x, 32, 3, stride=2, padding=1, act="relu6")
    in_c = 32
    # (expansion t, output channels c, repeats n, first stride s): Sandler et al. Table 2.
    settings = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1),
                (6, 160, 3, 2), (6, 320, 1, 1)]
    block = 0
    for t, c, reps, s in settings:
        for i in range(reps):
            block += 1
            stride = s if i == 0 else 1
            p = "block%d." % block
            hidden = in_c * t
            y = x
            if t != 1:
                y = n.conv(p + "expand", y, hidden, 1, act="relu6")
            y = n.conv(p + "depthwise", y, hidden, 3, stride=stride, padding=1, groups=hidden,
                       act="relu6")
            y = n.conv(p + "project", y, c, 1)
            if stride == 1 and in_c == c:
                y = n.add(p + "add", [y, x])
            x = y
            in_c = c
    x = n.conv("conv_head", x, 1280, 1, act="relu6")
    x = n.global_pool("avgpool", x)
    n.fc("classifier", x, 1000)
    return n


def fire(n, name, x, squeeze, e1, e3):
    s = n.conv(name + ".squeeze", x, squeeze, 1, act="relu")
    a = n.conv(name + ".expand1x1", s, e1, 1, act="relu")
    b = n.conv(name + ".expand3x3", s, e3, 3, padding=1, act="relu")
    return n.concat(name + ".concat", [a, b])


def squeezenet10():
    n = Net("SqueezeNet 1.0", "SqueezeNet 1.0 (Iandola et al. 2016) with the dims of "
            "torchvision squeezenet1_0: 8 fire modules, ceil-mode max pooling, 224x224x3 input")
    x = n.input("image", 3, 224, 224)
    x = n.conv("conv1", x, 96, 7, stride=2, act="relu")
    x = n.pool("maxpool1", x, "max", 3, stride=2, ceil_mode=True)
    x = fire(n, "fire2", x, 16, 64, 64)
    x = fire(n, "fire3", x, 16, 64, 64)
    x = fire(n, "fire4", x, 32, 128, 128)
    x = n.pool("maxpool4", x, "max", 3, stride=2, ceil_mode=True)
    x = fire(n, "fire5", x, 32, 128, 128)
    x = fire(n, "fire6", x, 48, 192, 192)
    x = fire(n, "fire7", x, 48, 192, 192)
    x = fire(n, "fire8", x, 64, 256, 256)
    x = n.pool("maxpool8", x, "max", 3, stride=2, ceil_mode=True)
    x = fire(n, "fire9", x, 64, 256, 256)
    x = n.conv("conv10", x, 1000, 1, act="relu")
    n.global_pool("avgpool10", x)
    return n


def squeezenet11():
    n = Net("SqueezeNet 1.1", "SqueezeNet 1.1 (SqueezeNet v1.1 release) with the dims of "
            "torchvision squeezenet1_1: 3x3 first convolution, earlier pooling, 224x224x3 input")
    x = n.input("image", 3, 224, 224)
    x = n.conv("conv1", x, 64, 3, stride=2, act="relu")
    x = n.pool("maxpool1", x, "max", 3, stride=2, ceil_mode=True)
    x = fire(n, "fire2", x, 16, 64, 64)
    x = fire(n, "fire3", x, 16, 64, 64)
    x = n.pool("maxpool3", x, "max", 3, stride=2, ceil_mode=True)
    x = fire(n, "fire4", x, 32, 128, 128)
    x = fire(n, "fire5", x, 32, 128, 128)
    x = n.pool("maxpool5", x, "max", 3, stride=2, ceil_mode=True)
    x = fire(n, "fire6", x, 48, 192, 192)
    x = fire(n, "fire7", x, 48, 192, 192)
    x = fire(n, "fire8", x, 64, 256, 256)
    x = fire(n, "fire9", x, 64, 256, 256)
    x = n.conv("conv10", x, 1000, 1, act="relu")
    n.global_pool("avgpool10", x)
    return n


def inception(n, name, x, c1, r3, c3, r5, c5, proj):
    a = n.conv(name + ".1x1", x, c1, 1, act="relu")
    b = n.conv(name + ".3x3_reduce", x, r3, 1, act="relu")
    b = n.conv(name + ".3x3", b, c3, 3, padding=1, act="relu")
    c = n.conv(name + ".5x5_reduce", x, r5, 1, act="relu")
    c = n.conv(name + ".5x5", c, c5, 5, padding=2, act="relu")
    d = n.pool(name + ".pool", x, "max", 3, padding=1)
    d = n.conv(name + ".pool_proj", d, proj, 1, act="relu")
    return n.concat(name + ".concat", [a, b, c, d])


def googlenet():
    n = Net("GoogLeNet", "GoogLeNet / Inception v1 (Szegedy et al. 2015, Table 1): nine "
            "inception modules on a 224x224x3 input, 5x5 branches as published, ceil-mode "
            "max pooling, auxiliary classifiers omitted")
    x = n.input("image", 3, 224, 224)
    x = n.conv("conv1", x, 64, 7, stride=2, padding=3, act="relu")
    x = n.pool("pool1", x, "max", 3, stride=2, ceil_mode=True)
    x = n.conv("conv2_reduce", x, 64, 1, act="relu")
    x = n.conv("conv2", x, 192, 3, padding=1, act="relu")
    x = n.pool("pool2", x, "max", 3, stride=2, ceil_mode=True)
    # (#1x1, #3x3 reduce, #3x3, #5x5 reduce, #5x5, pool proj): Szegedy et al. Table 1.
    table = {
        "3a": (64, 96, 128, 16, 32, 32), "3b": (128, 128, 192, 32, 96, 64),
        "4a": (192, 96, 208, 16, 48, 64), "4b": (160, 112, 224, 24, 64, 64),
        "4c": (128, 128, 256, 24, 64, 64), "4d": (112, 144, 288, 32, 64, 64),
        "4e": (256, 160, 320, 32, 128, 128), "5a": (256, 160, 320, 32, 128, 128),
        "5b": (384, 192, 384, 48, 128, 128),
    }
    for key, row in table.items():
        if key == "4a":
            x = n.pool("pool3", x, "max", 3, stride=2, ceil_mode=True)
        if key == "5a":
            x = n.pool("pool4", x, "max", 3, stride=2, ceil_mode=True)
        x = inception(n, "inception" + key, x, *row)
    x = n.global_pool("avgpool", x)
    n.fc("fc", x, 1000)
    return n


def alexnet():
    n = Net("AlexNet", "AlexNet (Krizhevsky et al. 2012; torchvision alexnet, the single-tower "
            "64-192-384-256-256 variant): 5 convolutions and 3 fully connected layers on a "
            "224x224x3 input")
    x = n.input("image", 3, 224, 224)
    x = n.conv("conv1", x, 64, 11, stride=4, padding=2, act="relu")
    x = n.pool("pool1", x, "max", 3, stride=2)
    x = n.conv("conv2", x, 192, 5, padding=2, act="relu")
    x = n.pool("pool2", x, "max", 3, stride=2)
    x = n.conv("conv3", x, 384, 3, padding=1, act="relu")
    x = n.conv("conv4", x, 256, 3, padding=1, act="relu")
    x = n.conv("conv5", x, 256, 3, padding=1, act="relu")
    x = n.pool("pool5", x, "max", 3, stride=2)
    x = n.fc("fc6", x, 4096, act="relu")
    x = n.fc("fc7", x, 4096, act="relu")
    n.fc("fc8", x, 1000)
    return n


def dmcnn_vd():
    n = Net("DMCNN-VD", "DMCNN-VD demosaicking CNN (Syu et al. 2018; ConvFusion Sec. VI-B): "
            "20 3x3 convolutions, 64 channels, SELU, residual output, on a full-HD "
            "1920x1080 3-channel mosaic")
    image = n.input("mosaic", 3, 1080, 1920)
    x = image
    for i in range(1, 20):
        x = n.conv("conv%d" % i, x, 64, 3, padding=1, act="selu")
    x = n.conv("conv20", x, 3, 3, padding=1)
    n.add("residual", [x, image])
    return n


# ---------------------------------------------------------------------------------------
# Stoutchinin et al. Appendix B: independent layers, each with its own input so the
# inferred shapes equal the table's H x H -> E x E exactly.

def same_padding(k):
    kh, kw = pair(k)
    return ((kh - 1) // 2, (kw - 1) // 2)


def stoutchinin_net(title, rows):
    """rows: (layer name, H, E, C, M, kernel, stride, padding)."""
    n = Net("Stoutchinin " + title, "Stoutchinin et al. 2019, Appendix B: the %s convolution "
            "layers as listed, each row with its own input (padding gives the listed output)"
            % title)
    for lname, h, e, c, m, k, s, pad in rows:
        x = n.input(lname + "_in", c, h, h)
        n.conv(lname, x, m, k, stride=s, padding=pad)
    return n


def stoutchinin():
    # (name, H, E, C, M, kernel, stride, padding). Padding: 11x11/4 at 224 -> 55 needs 2
    # (as torchvision alexnet); 5x5/2 at 55 -> 27 needs 1; 7x7/2 at 224 -> 112 needs 3;
    # stride-1 layers with H == E use same-padding.
    alex = [("alexnet1", 224, 55, 3, 96, 11, 4, 2), ("alexnet2", 55, 27, 96, 256, 5, 2, 1),
            ("alexnet3", 27, 13, 256, 384, 3, 2, 0), ("alexnet4", 13, 13, 384, 384, 3, 1, 1),
            ("alexnet5", 13, 13, 384, 256, 3, 1, 1)]
    zf = [("zfnet1", 224, 112, 3, 96, 7, 2, 3), ("zfnet3", 13, 13, 256, 384, 3, 1, 1),
          ("zfnet4", 13, 13, 384, 384, 3, 1, 1), ("zfnet5", 13, 13, 384, 256, 3, 1, 1),
          ("zfnet6", 6, 6, 256, 256, 3, 1, 1)]
    vgg = [("vgg%d" % i, h, h, c, m, 3, 1, 1) for i, h, c, m in [
        (1, 224, 3, 64), (2, 224, 64, 64), (3, 112, 64, 128), (4, 112, 128, 128),
        (5, 56, 128, 256), (6, 56, 256, 256), (8, 28, 512, 256), (9, 28, 512, 512),
        (11, 14, 512, 512)]]

    def block(g, h, layers):
        return [("block%d_%d" % (g, r), h, h, c, m, k, 1, same_padding(k))
                for r, (c, m, k) in enumerate(layers, 1)]

    def mixed_a(c_in, pool_proj):
        return [(c_in, 64, 1), (c_in, 48, 1), (48, 64, 5), (c_in, 64, 1), (64, 96, 3),
                (96, 96, 3), (c_in, pool_proj, 1)]

    inc = block(0, 35, mixed_a(192, 32)) + block(1, 35, mixed_a(256, 64)) + \
        block(2, 35, mixed_a(288, 64))
    inc += [("block3_1", 35, 17, 288, 384, 3, 2, 0), ("block3_2", 35, 35, 288, 64, 1, 1, 0),
            ("block3_3", 35, 35, 64, 96, 3, 1, 1), ("block3_4", 35, 17, 96, 96, 3, 2, 0),
            ("block3_5", 17, 17, 288, 64, 1, 1, 0)]
    # Block 4 row 1 reads "798" input channels in the table; every other 1x1 of the block
    # (and Inception-v3's Mixed_6b input) has 768, so 768 is used.
    inc += block(4, 17, [(768, 192, 1), (768, 128, 1), (128, 128, (1, 7)), (128, 192, (7, 1)),
                         (768, 128, 1), (128, 128, (7, 1)), (128, 128, (1, 7)),
                         (128, 128, (7, 1)), (128, 192, (1, 7)), (768, 192, 1)])
    # Group 1 row 2 (1x1, 64 -> 64) has no extent in the table; it is ResNet's first
    # bottleneck reduction, which runs at 56x56.
    res = [("block1_1", 224, 112, 3, 64, 7, 2, 3), ("block1_2", 56, 56, 64, 64, 1, 1, 0)]
    res += block(2, 56, [(64, 64, 3), (64, 256, 1), (256, 128, 1)])
    res += block(3, 28, [(128, 128, 3), (128, 512, 1), (512, 256, 1)])
    res += block(4, 14, [(256, 256, 3), (256, 1024, 1), (1024, 512, 1)])
    res += block(5, 7, [(512, 512, 3), (512, 2048, 1), (512, 2048, 1)])
    return {
        "stoutchinin-alexnet": stoutchinin_net("AlexNet", alex),
        "stoutchinin-zfnet": stoutchinin_net("ZFNet", zf),
        "stoutchinin-vgg": stoutchinin_net("VGG", vgg),
        "stoutchinin-inception-v3": stoutchinin_net("Inception-v3", inc),
        "stoutchinin-resnet": stoutchinin_net("ResNet", res),
    }


# ---------------------------------------------------------------------------------------
# Networks the papers evaluate that the torchvision set lacks.

def tf_same_padding(size, kernel, stride):
    """TensorFlow 'same' padding of one axis: (before, after), the extra row after."""
    out = -(-size // stride)
    total = max((out - 1) * stride + kernel - size, 0)
    return total // 2, total - total // 2


def keras_conv(n, name, x, size, out, kh, kw, stride=1, same=True):
    """Keras conv2d_bn: convolution (kernel [kh, kw]) with batch norm and ReLU folded."""
    pad = 0
    if same:
        t, b = tf_same_padding(size[0], kh, stride)
        l, r = tf_same_padding(size[1], kw, stride)
        pad = (t, l, b, r)
    return n.conv(name, x, out, (kh, kw), stride=stride, padding=pad, act="relu")


def inception_v3():
    n = Net("InceptionV3", "Inception-v3 (Szegedy et al. 2016; Keras Applications "
            "inception_v3): 94 convolutions with batch norm and ReLU folded, 11 mixed blocks, "
            "on a 299x299x3 input")
    x = n.input("image", 3, 299, 299)
    k = [0]

    def conv(x, size, out, kh, kw, stride=1, same=True):
        k[0] += 1
        return keras_conv(n, "conv2d_%d" % k[0], x, size, out, kh, kw, stride, same)

    x = conv(x, (299, 299), 32, 3, 3, 2, False)       # 149
    x = conv(x, (149, 149), 32, 3, 3, 1, False)       # 147
    x = conv(x, (147, 147), 64, 3, 3)                 # 147
    x = n.pool("max_pooling2d_1", x, "max", 3, stride=2)  # 73
    x = conv(x, (73, 73), 80, 1, 1, 1, False)         # 73
    x = conv(x, (73, 73), 192, 3, 3, 1, False)        # 71
    x = n.pool("max_pooling2d_2", x, "max", 3, stride=2)  # 35
    s = (35, 35)
    for m, proj in enumerate((32, 64, 64)):            # mixed0..2: 256, 288, 288 maps
        b1 = conv(x, s, 64, 1, 1)
        b5 = conv(conv(x, s, 48, 1, 1), s, 64, 5, 5)
        b3 = conv(conv(conv(x, s, 64, 1, 1), s, 96, 3, 3), s, 96, 3, 3)
        bp = n.pool("average_pooling2d_%d" % (m + 1), x, "avg", 3, padding=1)
        x = n.concat("mixed%d" % m, [b1, b5, b3, conv(bp, s, proj, 1, 1)])
    b3 = conv(x, s, 384, 3, 3, 2, False)               # mixed3: 17x17x768
    bd = conv(conv(conv(x, s, 64, 1, 1), s, 96, 3, 3), s, 96, 3, 3, 2, False)
    bp = n.pool("max_pooling2d_3", x, "max", 3, stride=2)
    x = n.concat("mixed3", [b3, bd, bp])
    s = (17, 17)
    for m, c in enumerate((128, 160, 160, 192)):      # mixed4..7: 17x17x768
        b1 = conv(x, s, 192, 1, 1)
        b7 = conv(conv(conv(x, s, c, 1, 1), s, c, 1, 7), s, 192, 7, 1)
        bd = conv(x, s, c, 1, 1)
        for kh, kw, out in ((7, 1, c), (1, 7, c), (7, 1, c), (1, 7, 192)):
            bd = conv(bd, s, out, kh, kw)
        bp = n.pool("average_pooling2d_%d" % (m + 4), x, "avg", 3, padding=1)
        x = n.concat("mixed%d" % (m + 4), [b1, b7, bd, conv(bp, s, 192, 1, 1)])
    b3 = conv(conv(x, s, 192, 1, 1), s, 320, 3, 3, 2, False)  # mixed8: 8x8x1280
    b7 = conv(conv(conv(conv(x, s, 192, 1, 1), s, 192, 1, 7), s, 192, 7, 1), s, 192, 3, 3, 2,
              False)
    bp = n.pool("max_pooling2d_4", x, "max", 3, stride=2)
    x = n.concat("mixed8", [b3, b7, bp])
    s = (8, 8)
    for m in range(2):                                 # mixed9, mixed10: 8x8x2048
        b1 = conv(x, s, 320, 1, 1)
        b3 = conv(x, s, 384, 1, 1)
        b3 = n.concat("mixed9_%d" % m, [conv(b3, s, 384, 1, 3), conv(b3, s, 384, 3, 1)])
        bd = conv(conv(x, s, 448, 1, 1), s, 384, 3, 3)
        bd = n.concat("concatenate_%d" % (m + 1), [conv(bd, s, 384, 1, 3), conv(bd, s, 384, 3, 1)])
        bp = n.pool("average_pooling2d_%d" % (m + 8), x, "avg", 3, padding=1)
        x = n.concat("mixed%d" % (m + 9), [b1, b3, bd, conv(bp, s, 192, 1, 1)])
    x = n.global_pool("avg_pool", x)
    n.fc("predictions", x, 1000)
    return n


def xception():
    n = Net("Xception", "Xception (Chollet 2017; Keras Applications xception): separable "
            "convolutions as depthwise 3x3 + pointwise 1x1 layers, batch norm and ReLU folded, "
            "on a 299x299x3 input")
    x = n.input("image", 3, 299, 299)
    x = n.conv("block1_conv1", x, 32, 3, stride=2, act="relu")  # 149
    x = n.conv("block1_conv2", x, 64, 3, act="relu")            # 147
    size = 147

    def sepconv(name, x, c_in, out, act=None):
        d = n.conv(name + "_dw", x, c_in, 3, padding=1, groups=c_in)
        return n.conv(name + "_pw", d, out, 1, act=act)

    c = 64
    for block, out in ((2, 128), (3, 256), (4, 728)):
        res = n.conv("conv2d_%d" % (block - 1), x, out, 1, stride=2)
        y = sepconv("block%d_sepconv1" % block, x, c, out, act="relu")
        y = sepconv("block%d_sepconv2" % block, y, out, out)
        t, b = tf_same_padding(size, 3, 2)
        y = n.pool("block%d_pool" % block, y, "max", 3, stride=2, padding=(t, t, b, b))
        size = -(-size // 2)
        x = n.add("add_%d" % (block - 1), [y, res])
        c = out
    for block in range(5, 13):                      # middle flow, 19x19x728
        y = x
        for k in (1, 2, 3):
            y = sepconv("block%d_sepconv%d" % (block, k), y, 728, 728,
                        act="relu" if k < 3 else None)
        x = n.add("add_%d" % (block - 1), [y, x])
    res = n.conv("conv2d_4", x, 1024, 1, stride=2)
    y = sepconv("block13_sepconv1", x, 728, 728, act="relu")
    y = sepconv("block13_sepconv2", y, 728, 1024)
    t, b = tf_same_padding(size, 3, 2)
    y = n.pool("block13_pool", y, "max", 3, stride=2, padding=(t, t, b, b))
    x = n.add("add_12", [y, res])                   # 10x10x1024
    x = sepconv("block14_sepconv1", x, 1024, 1536, act="relu")
    x = sepconv("block14_sepconv2", x, 1536, 2048, act="relu")
    x = n.global_pool("avg_pool", x)
    n.fc("predictions", x, 1000)
    return n


def vgg_e():
    n = Net("VGG16-E", "VGG configuration E (Simonyan and Zisserman 2015, Table 1; also known "
            "as VGG19): 16 3x3 convolutions, 5 max pools and 3 fully connected layers on a "
            "224x224x3 input; the VGG16-E of HW-Flow-Fusion, layer names as its Tables 6-7")
    x = n.input("image", 3, 224, 224)
    k = 0
    for s, (width, reps) in enumerate(((64, 2), (128, 2), (256, 4), (512, 4), (512, 4)), 1):
        for _ in range(reps):
            k += 1
            x = n.conv("conv%d" % k, x, width, 3, padding=1, act="relu")
        x = n.pool("pool%d" % s, x, "max", 2, stride=2)
    x = n.fc("fc1", x, 4096, act="relu")
    x = n.fc("fc2", x, 4096, act="relu")
    n.fc("fc3", x, 1000)
    return n


def mobilenet_v1():
    n = Net("MobileNet", "MobileNet v1 1.0 (Howard et al. 2017, Table 1): depthwise separable "
            "convolutions on a 224x224x3 input, batch norm and ReLU folded")
    x = n.input("image", 3, 224, 224)
    x = n.conv("conv1", x, 32, 3, stride=2, padding=1, act="relu")
    c = 32
    # (pointwise output channels, depthwise stride): Howard et al. Table 1.
    table = [(64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2)] + [(512, 1)] * 5 + \
        [(1024, 2), (1024, 1)]
    for i, (out, stride) in enumerate(table, 1):
        x = n.conv("conv_dw_%d" % i, x, c, 3, stride=stride, padding=1, groups=c, act="relu")
        x = n.conv("conv_pw_%d" % i, x, out, 1, act="relu")
        c = out
    x = n.global_pool("avg_pool", x)
    n.fc("fc", x, 1000)
    return n


def lenet5():
    n = Net("LeNet-5", "LeNet-5 (LeCun et al. 1998): two 5x5 convolutions with 2x2 "
            "subsampling, C5, F6 and the output layer on a 32x32x1 input; C3 fully connected")
    x = n.input("image", 1, 32, 32)
    x = n.conv("c1", x, 6, 5, act="tanh")
    x = n.pool("s2", x, "avg", 2, stride=2)
    x = n.conv("c3", x, 16, 5, act="tanh")
    x = n.pool("s4", x, "avg", 2, stride=2)
    x = n.conv("c5", x, 120, 5, act="tanh")
    x = n.fc("f6", x, 84, act="tanh")
    n.fc("output", x, 10)
    return n


def all_networks():
    nets = {}
    nets.update(lnets())
    nets["vgg16"] = vgg16()
    nets.update(resnets())
    nets["mobilenetv2"] = mobilenetv2()
    nets["squeezenet1.0"] = squeezenet10()
    nets["squeezenet1.1"] = squeezenet11()
    nets["googlenet"] = googlenet()
    nets["alexnet"] = alexnet()
    nets["dmcnn-vd"] = dmcnn_vd()
    nets.update(stoutchinin())
    nets["inceptionv3"] = inception_v3()
    nets["xception"] = xception()
    nets["vgg16-e"] = vgg_e()
    nets["mobilenetv1"] = mobilenet_v1()
    nets["lenet5"] = lenet5()
    return nets


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out_dir = os.path.join(root, "examples", "networks")
    if len(sys.argv) > 1:
        out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    for short, net in all_networks().items():
        path = os.path.join(out_dir, short + ".net.yaml")
        with open(path, "w", encoding="ascii", newline="\n") as f:
            f.write(net.emit())
        print("%-26s %5d layers" % (short, len(net.layers)))


if __name__ == "__main__":
    main()
