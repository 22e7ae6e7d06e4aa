/**
 * Devices claimed through Dynamic Resource Allocation ({@code resource.k8s.io/v1}) counted in a
 * pod's request (semantics.md section 22): which quota resources a DeviceClass stands for ({@link
 * io.quotaflow.dra.DeviceClassMappings}), what the DRA objects of a cluster tell ({@link
 * io.quotaflow.dra.DraObjects}) and what a pod's claims add to its request ({@link
 * io.quotaflow.dra.ClaimedDevices}). Pure: no I/O, no clock.
 */
package io.quotaflow.dra;
