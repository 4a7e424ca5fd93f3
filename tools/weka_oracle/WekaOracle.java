/*
 * WekaOracle: a tiny command-line harness that runs Weka 3.6 classifiers on index-selected
 * training/test subsets of ONE ARFF file and writes what they learned and predicted as
 * JSON lines.
 *
 * Why this exists: redecorate reimplements J48 (C4.5 r8), Bagging, AdaBoostM1, RandomForest
 * and Decorate in Python; Weka is the oracle for differential tests and benchmarks (never a
 * runtime dependency). Selecting rows BY INDEX from the full file, instead of writing one
 * ARFF per fold, keeps the header (attribute domains, value order) identical to what the
 * Python side loads, and one JVM per (dataset, setting) keeps the tests fast.
 *
 * Usage:  java -cp weka.jar:<dir of this class> WekaOracle SPEC OUT
 *         java -cp ... WekaOracle --info|--dump ARFF CLASS OUT
 *
 * SPEC is a plain-text file, one directive per line ('#' starts a comment line):
 *   arff <path>                      the full ARFF file (rest of the line, may contain spaces)
 *   class <i>|first|last             class attribute (0-based index)
 *   classifier <name> <options...>   Weka class name and options (weka.core.Utils quoting)
 *   seed <int>                       default seed, applied with setSeed() to Randomizable learners
 *   time <R>                         optional: warm-up pass, then R timed repetitions per set
 *   warmup <k>                       optional: warm up on the first k sets only (default all)
 *   model <0|1>                      optional: include toString() dumps (default 1)
 *   set <id>                         starts a training set block; then, in any order:
 *     train <i> <i> ...                0-based data rows (file order, no filtering), in order
 *     weights <w> <w> ...              optional instance weights, one per train row
 *     test <j> <j> ...                 optional 0-based data rows to predict
 *     seed <int>                       optional per-set seed override
 *   end                              closes the block
 *
 * OUT receives one JSON object per set:
 *   {"set": id, "error": null|"text", "n_train": n, "measures": {...}, "model": "...",
 *    "pred": [classifyInstance: class index, -1 when missing],
 *    "pred_eval": [Utils.maxIndex(dist) as weka.classifiers.Evaluation counts it, -1 if 0],
 *    "dist": [[p, ...], ...],
 *    "serialized_bytes": size of the fitted model under Java serialization,
 *    "fit_seconds": median, "predict_seconds": median, "reps": R,
 *    "fit_cpu_seconds": median CPU time of the fitting thread (wall time on a loaded machine
 *    counts other processes' share too; our side is timed in process CPU)}
 * Exceptions are caught per set (e.g. Decorate refuses tiny training sets) and reported in
 * "error" instead of aborting the run.
 *
 * --info writes a single JSON object describing the header (attribute names, types,
 * declared nominal values), the number of rows and which rows have a missing class, so
 * the Python side can check that its own ARFF loader sees the same data as Weka; --dump
 * adds every value (column-major, nominal values as indices, null = missing) and the
 * instance weights.
 */

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.FileReader;
import java.io.FileWriter;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.List;

import weka.classifiers.Classifier;
import weka.core.AdditionalMeasureProducer;
import weka.core.Attribute;
import weka.core.Instance;
import weka.core.Instances;
import weka.core.Randomizable;
import weka.core.Utils;

public class WekaOracle {

    /** One training set block of the spec. */
    static final class SetSpec {
        String id;
        int[] train = new int[0];
        double[] weights; // null: all weights 1
        int[] test = new int[0];
        Integer seed; // null: the spec's default seed
    }

    /** The whole parsed spec. */
    static final class Spec {
        String arff;
        String classSpec = "last";
        String classifierName;
        String[] classifierOptions = new String[0];
        Integer seed;
        int timeReps = 0;
        int warmup = -1; // sets in the warm-up pass of timing mode; -1 = all
        boolean dumpModel = true;
        List<SetSpec> sets = new ArrayList<SetSpec>();
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 4 && (args[0].equals("--info") || args[0].equals("--dump"))) {
            Instances data = load(args[1], args[2]);
            PrintWriter out = new PrintWriter(new FileWriter(args[3]));
            out.println(info(data, args[0].equals("--dump")));
            out.close();
            return;
        }
        if (args.length != 2) {
            System.err.println("usage: WekaOracle SPEC OUT | WekaOracle --info|--dump ARFF CLASS OUT");
            System.exit(2);
        }
        Spec spec = parse(args[0]);
        Instances data = load(spec.arff, spec.classSpec);
        Classifier template = Classifier.forName(spec.classifierName, spec.classifierOptions.clone());
        PrintWriter out = new PrintWriter(new FileWriter(args[1]));
        if (spec.timeReps > 0) {
            // Warm-up over every set so the JIT has compiled Weka's hot paths before timing:
            // the benchmark compares steady-state speed, not JVM start-up.
            int n = spec.warmup < 0 ? spec.sets.size() : Math.min(spec.warmup, spec.sets.size());
            for (SetSpec s : spec.sets.subList(0, n)) {
                try {
                    runOnce(spec, data, template, s, null);
                } catch (Throwable t) {
                    // reported (again) in the timed pass
                }
            }
        }
        for (SetSpec s : spec.sets) {
            out.println(runSet(spec, data, template, s));
            out.flush();
        }
        out.close();
    }

    // ------------------------------------------------------------------ data and spec

    static Instances load(String path, String classSpec) throws IOException {
        BufferedReader r = new BufferedReader(new FileReader(path));
        Instances data = new Instances(r);
        r.close();
        if (classSpec.equals("last")) {
            data.setClassIndex(data.numAttributes() - 1);
        } else if (classSpec.equals("first")) {
            data.setClassIndex(0);
        } else {
            data.setClassIndex(Integer.parseInt(classSpec));
        }
        return data;
    }

    static Spec parse(String path) throws IOException {
        Spec spec = new Spec();
        BufferedReader r = new BufferedReader(new FileReader(path));
        SetSpec cur = null;
        String line;
        int lineNo = 0;
        while ((line = r.readLine()) != null) {
            lineNo++;
            String t = line.trim();
            if (t.isEmpty() || t.startsWith("#")) {
                continue;
            }
            int sp = t.indexOf(' ');
            String key = sp < 0 ? t : t.substring(0, sp);
            String rest = sp < 0 ? "" : t.substring(sp + 1).trim();
            try {
                if (cur == null) {
                    if (key.equals("arff")) {
                        spec.arff = rest;
                    } else if (key.equals("class")) {
                        spec.classSpec = rest;
                    } else if (key.equals("classifier")) {
                        String[] parts = Utils.splitOptions(rest);
                        spec.classifierName = parts[0];
                        spec.classifierOptions = Arrays.copyOfRange(parts, 1, parts.length);
                    } else if (key.equals("seed")) {
                        spec.seed = Integer.valueOf(rest);
                    } else if (key.equals("time")) {
                        spec.timeReps = Integer.parseInt(rest);
                    } else if (key.equals("warmup")) {
                        spec.warmup = Integer.parseInt(rest);
                    } else if (key.equals("model")) {
                        spec.dumpModel = !rest.equals("0");
                    } else if (key.equals("set")) {
                        cur = new SetSpec();
                        cur.id = rest;
                    } else {
                        throw new IOException("unknown directive");
                    }
                } else {
                    if (key.equals("train")) {
                        cur.train = ints(rest);
                    } else if (key.equals("test")) {
                        cur.test = ints(rest);
                    } else if (key.equals("weights")) {
                        cur.weights = doubles(rest);
                    } else if (key.equals("seed")) {
                        cur.seed = Integer.valueOf(rest);
                    } else if (key.equals("end")) {
                        spec.sets.add(cur);
                        cur = null;
                    } else {
                        throw new IOException("unknown directive inside a set");
                    }
                }
            } catch (Exception e) {
                r.close();
                throw new IOException(path + ":" + lineNo + ": " + e.getMessage() + ": " + t);
            }
        }
        r.close();
        if (cur != null) {
            throw new IOException(path + ": set " + cur.id + " lacks 'end'");
        }
        if (spec.arff == null || spec.classifierName == null) {
            throw new IOException(path + ": 'arff' and 'classifier' are required");
        }
        return spec;
    }

    static int[] ints(String s) {
        if (s.isEmpty()) {
            return new int[0];
        }
        String[] p = s.split("\\s+");
        int[] out = new int[p.length];
        for (int i = 0; i < p.length; i++) {
            out[i] = Integer.parseInt(p[i]);
        }
        return out;
    }

    static double[] doubles(String s) {
        if (s.isEmpty()) {
            return new double[0];
        }
        String[] p = s.split("\\s+");
        double[] out = new double[p.length];
        for (int i = 0; i < p.length; i++) {
            out[i] = Double.parseDouble(p[i]);
        }
        return out;
    }

    /** Training Instances with the full header: rows in the given order, weights applied. */
    static Instances subset(Instances data, int[] rows, double[] weights) {
        Instances sub = new Instances(data, rows.length);
        for (int i = 0; i < rows.length; i++) {
            sub.add(data.instance(rows[i])); // Instances.add copies the instance
            if (weights != null) {
                sub.instance(i).setWeight(weights[i]);
            }
        }
        return sub;
    }

    // ------------------------------------------------------------------ running

    /** Result of one fit+predict. */
    static final class Outcome {
        Classifier model;
        double[] pred;
        double[][] dist;
        long fitNanos;
        long fitCpuNanos;
        long predictNanos;
    }

    static Outcome runOnce(Spec spec, Instances data, Classifier template, SetSpec s, Instances[] cache)
            throws Exception {
        Instances train = cache != null && cache[0] != null ? cache[0] : subset(data, s.train, s.weights);
        Instances test = cache != null && cache[1] != null ? cache[1] : subset(data, s.test, null);
        if (cache != null) {
            cache[0] = train;
            cache[1] = test;
        }
        Classifier c = Classifier.makeCopy(template);
        Integer seed = s.seed != null ? s.seed : spec.seed;
        if (seed != null && c instanceof Randomizable) {
            ((Randomizable) c).setSeed(seed.intValue());
        }
        Outcome o = new Outcome();
        // Fit on a private copy: J48 and friends copy internally anyway, but an ensemble
        // that reweights in place must not leak weights into the next repetition.
        Instances fitData = new Instances(train);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long c0 = threads.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        c.buildClassifier(fitData);
        long t1 = System.nanoTime();
        long c1 = threads.getCurrentThreadCpuTime();
        int n = test.numInstances();
        double[] pred = new double[n];
        double[][] dist = new double[n][];
        for (int i = 0; i < n; i++) {
            dist[i] = c.distributionForInstance(test.instance(i));
        }
        long t2 = System.nanoTime();
        // classifyInstance is kept out of the timed region (it recomputes the distribution,
        // and our predict_proba is what gets timed), but it is reported as is: J48's own
        // classifyInstance breaks ties with Utils.gr and ignores -A, so it may differ from
        // the argmax of the distribution.
        for (int i = 0; i < n; i++) {
            pred[i] = c.classifyInstance(test.instance(i));
        }
        o.model = c;
        o.pred = pred;
        o.dist = dist;
        o.fitNanos = t1 - t0;
        o.fitCpuNanos = c1 - c0;
        o.predictNanos = t2 - t1;
        return o;
    }

    static String runSet(Spec spec, Instances data, Classifier template, SetSpec s) {
        StringBuilder b = new StringBuilder();
        b.append("{\"set\": ").append(str(s.id));
        b.append(", \"n_train\": ").append(s.train.length);
        b.append(", \"n_test\": ").append(s.test.length);
        try {
            if (s.weights != null && s.weights.length != s.train.length) {
                throw new IllegalArgumentException(
                        "weights has " + s.weights.length + " values for " + s.train.length + " train rows");
            }
            int reps = Math.max(1, spec.timeReps);
            Instances[] cache = new Instances[2];
            double[] fit = new double[reps];
            double[] fitCpu = new double[reps];
            double[] pre = new double[reps];
            Outcome o = null;
            for (int r = 0; r < reps; r++) {
                o = runOnce(spec, data, template, s, cache);
                fit[r] = o.fitNanos / 1e9;
                fitCpu[r] = o.fitCpuNanos / 1e9;
                pre[r] = o.predictNanos / 1e9;
            }
            b.append(", \"error\": null");
            b.append(", \"measures\": ").append(measures(o.model));
            b.append(", \"serialized_bytes\": ").append(serializedSize(o.model));
            if (spec.dumpModel) {
                b.append(", \"model\": ").append(str(o.model.toString()));
            }
            b.append(", \"pred\": [");
            for (int i = 0; i < o.pred.length; i++) {
                if (i > 0) {
                    b.append(", ");
                }
                b.append(Instance.isMissingValue(o.pred[i]) ? -1 : (int) o.pred[i]);
            }
            // What weka.classifiers.Evaluation counts as the prediction for a nominal class
            // (and so what every accuracy in the thesis is based on): Utils.maxIndex of the
            // distribution, missing when that maximum is not positive.
            b.append("], \"pred_eval\": [");
            for (int i = 0; i < o.dist.length; i++) {
                int m = Utils.maxIndex(o.dist[i]);
                b.append(i > 0 ? ", " : "").append(o.dist[i][m] <= 0 ? -1 : m);
            }
            b.append("], \"dist\": [");
            for (int i = 0; i < o.dist.length; i++) {
                b.append(i > 0 ? ", [" : "[");
                for (int k = 0; k < o.dist[i].length; k++) {
                    if (k > 0) {
                        b.append(", ");
                    }
                    b.append(num(o.dist[i][k]));
                }
                b.append("]");
            }
            b.append("]");
            b.append(", \"reps\": ").append(spec.timeReps);
            b.append(", \"fit_seconds\": ").append(num(median(fit)));
            b.append(", \"predict_seconds\": ").append(num(median(pre)));
            b.append(", \"fit_cpu_seconds\": ").append(num(median(fitCpu)));
        } catch (Throwable t) {
            String msg = t.getClass().getName() + ": " + t.getMessage();
            b.append(", \"error\": ").append(str(msg));
        }
        b.append("}");
        return b.toString();
    }

    static String measures(Classifier c) {
        StringBuilder b = new StringBuilder("{");
        if (c instanceof AdditionalMeasureProducer) {
            AdditionalMeasureProducer amp = (AdditionalMeasureProducer) c;
            boolean first = true;
            for (Enumeration<?> e = amp.enumerateMeasures(); e.hasMoreElements();) {
                String name = (String) e.nextElement();
                double v;
                try {
                    v = amp.getMeasure(name);
                } catch (Throwable t) {
                    continue;
                }
                b.append(first ? "" : ", ").append(str(name)).append(": ").append(num(v));
                first = false;
            }
        }
        return b.append("}").toString();
    }

    /** Size of the fitted model under Java serialization: the benchmarks' memory proxy. */
    static long serializedSize(Classifier c) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            ObjectOutputStream oos = new ObjectOutputStream(bytes);
            oos.writeObject(c);
            oos.close();
            return bytes.size();
        } catch (IOException e) {
            return -1;
        }
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    }

    // ------------------------------------------------------------------ --info

    static String info(Instances data, boolean withData) {
        StringBuilder b = new StringBuilder("{");
        b.append("\"relation\": ").append(str(data.relationName()));
        b.append(", \"num_instances\": ").append(data.numInstances());
        b.append(", \"class_index\": ").append(data.classIndex());
        b.append(", \"attributes\": [");
        for (int j = 0; j < data.numAttributes(); j++) {
            Attribute a = data.attribute(j);
            b.append(j > 0 ? ", " : "").append("{\"name\": ").append(str(a.name()));
            b.append(", \"type\": ").append(str(a.isNominal() ? "nominal" : a.isNumeric() ? "numeric" : a.isString() ? "string" : a.isDate() ? "date" : "other"));
            if (a.isNominal()) {
                b.append(", \"values\": [");
                for (int v = 0; v < a.numValues(); v++) {
                    b.append(v > 0 ? ", " : "").append(str(a.value(v)));
                }
                b.append("]");
            }
            b.append("}");
        }
        b.append("], \"missing_class_rows\": [");
        boolean first = true;
        for (int i = 0; i < data.numInstances(); i++) {
            if (data.instance(i).classIsMissing()) {
                b.append(first ? "" : ", ").append(i);
                first = false;
            }
        }
        b.append("]");
        if (withData) {
            // Column-major values as Weka parsed them: numeric values, nominal value indices,
            // null for missing. Lets the Python side rebuild exactly Weka's data when checking
            // (or standing in for) its own ARFF loader.
            b.append(", \"columns\": [");
            for (int j = 0; j < data.numAttributes(); j++) {
                b.append(j > 0 ? ", [" : "[");
                for (int i = 0; i < data.numInstances(); i++) {
                    double v = data.instance(i).value(j);
                    b.append(i > 0 ? ", " : "").append(Instance.isMissingValue(v) ? "null" : num(v));
                }
                b.append("]");
            }
            b.append("], \"weights\": [");
            for (int i = 0; i < data.numInstances(); i++) {
                b.append(i > 0 ? ", " : "").append(num(data.instance(i).weight()));
            }
            b.append("]");
        }
        b.append("}");
        return b.toString();
    }

    // ------------------------------------------------------------------ JSON helpers

    /** Doubles print with Java's round-trip representation; non-finite values become null. */
    static String num(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return "null";
        }
        return Double.toString(v);
    }

    static String str(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '"':
                    b.append("\\\"");
                    break;
                case '\\':
                    b.append("\\\\");
                    break;
                case '\n':
                    b.append("\\n");
                    break;
                case '\r':
                    b.append("\\r");
                    break;
                case '\t':
                    b.append("\\t");
                    break;
                default:
                    if (ch < 0x20) {
                        b.append(String.format("\\u%04x", (int) ch));
                    } else {
                        b.append(ch);
                    }
            }
        }
        return b.append('"').toString();
    }
}
